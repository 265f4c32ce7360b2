#!/bin/sh
# Eighteenth session, fourth call: where the Ozaki-II element passes' time goes. f64 4096^3 and
# 8192^3 with 14 moduli: scan + scale alone (--ozaki-skip 14:14), with the split (6), the
# combine alone (3), whole (0), two orders; then the machine code NVIDIA's driver made of the
# scheme's pipelines (fresh shader cache, tools/sass_extract.py, nvdisasm): instructions, local
# memory (STL / LDL) per code section. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
export PATH=$PATH:/usr/local/cuda/bin
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "14:14 14:6 14:3 14:0"
d=/tmp/glc_oz; rm -rf "$d"; mkdir -p "$d" /tmp/sass
__GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
  timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1
python3 tools/sass_extract.py "$d" /tmp/sass > /dev/null 2>&1
for f in /tmp/sass/*.code; do
  [ -f "$f" ] || continue
  nvdisasm -b SM90 "$f" > "$f.sass" 2>/dev/null
  echo "$(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$f.sass") STL $(grep -c STL "$f.sass") LDL $(grep -c LDL "$f.sass") DMUL $(grep -c DMUL "$f.sass") HI $(grep -c 'IMAD.HI' "$f.sass") F2I $(grep -c F2I "$f.sass") HMMA/IMMA $(grep -c 'MMA' "$f.sass") STG $(grep -c STG "$f.sass") LDG $(grep -c LDG "$f.sass") BRA $(grep -c BRA "$f.sass")" >> "$OUT/sass.txt"
done
tar cJf "$OUT/sass.tar.xz" -C /tmp sass
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
echo "== sass"; cat "$OUT/sass.txt"
