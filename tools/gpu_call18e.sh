#!/bin/sh
# Eighteenth session, fifth call: how the Ozaki-II element passes scale with the number of
# moduli (split alone = skip 6 minus skip 14; combine alone = skip 3) at f64 4096^3 with 8, 14
# and 20 moduli, two orders; then NVIDIA's shader disk cache of one run of the scheme (fresh;
# tools/sass_extract.py and nvdisasm there, the cache itself returned too).
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
ozaki_rounds "f64_4096" "8:14 8:6 8:3 14:14 14:6 14:3 20:14 20:6 20:3"
d=/tmp/glc_oz; rm -rf "$d" /tmp/sass; mkdir -p "$d" /tmp/sass
__GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
  timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1
find "$d" -type f | head -5 > "$OUT/sass.txt"
python3 tools/sass_extract.py "$d" /tmp/sass >> "$OUT/sass.txt" 2>&1
for f in /tmp/sass/*.code; do
  [ -f "$f" ] || continue
  /usr/local/cuda/bin/nvdisasm -b SM90 "$f" > "$f.sass" 2>> "$OUT/sass.txt"
  echo "$(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$f.sass") STL $(grep -c STL "$f.sass") LDL $(grep -c LDL "$f.sass") IMAD.HI $(grep -c 'IMAD.HI' "$f.sass") MMA $(grep -c 'MMA' "$f.sass") STG $(grep -c STG "$f.sass") LDG $(grep -c LDG "$f.sass")" >> "$OUT/sass.txt"
done
tar cJf "$OUT/sass.tar.xz" -C /tmp sass glc_oz
echo "== gemm"; gemm_summary
echo "== sass"; cut -c1-200 "$OUT/sass.txt" | head -30
