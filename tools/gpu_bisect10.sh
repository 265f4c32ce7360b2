#!/bin/sh
# Tenth session: which part of 2d81afb costs f32 4096^3 14 %? Variants C (HEAD with the tile
# index, tile counts and slice counts by 64-bit division as before: only reduce_partials and the
# full_word() refactor differ from old) and D (C with reduce_partials as before) against old
# (8056eb3) and new (HEAD), alternating; the disassembled f32 pipelines (old, new, A, B from the
# previous call's caches, C and D here): instruction mix, spills, highest register.
set -u
. tools/gpu_env.sh
export PATH=$PATH:/usr/local/cuda/bin
bin() { case $1 in new) echo "$B/tenferro_bench_vk_gemm";; old) echo "$B/old_bench_vk_gemm";; *) echo "$B/var$1_bench_vk_gemm";; esac; }
mkdir -p "$OUT/dis"
for v in C D; do
  d=/tmp/glc_$v; rm -rf "$d"; mkdir -p "$d"
  __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    timeout 60 "$(bin $v)" sweep f32_4096 --configs "128,256,8,8,16,fsu" --reps 2 --budget 20 --total 20 > /dev/null 2>&1
  find "$d" -name '*.bin' -exec cp {} "$OUT/dis/$v.bin" \;
done
timeout 60 "$(bin old)" sweep f32_4096 --configs "128,256,8,8,16,fsu" --reps 2 > /dev/null 2>&1
timeout 60 "$(bin new)" sweep f32_4096 --configs "128,256,8,8,16,fsu" --reps 2 > /dev/null 2>&1
for f in $B/codes/*.code; do
  s="$OUT/dis/$(basename $f .code).sass"; nvdisasm -b SM90 "$f" > "$s" 2>&1
  echo "$(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$s") FFMA $(grep -c FFMA "$s") LDS $(grep -c 'LDS' "$s") LDG $(grep -c LDG "$s") STL $(grep -c STL "$s") LDL $(grep -c LDL "$s") BRA $(grep -c BRA "$s") maxR $(grep -o 'R[0-9]*' "$s" | tr -d R | sort -n | tail -1)"
done
for r in 1 2 3; do
  for v in old new C D; do
    timeout 60 "$(bin $v)" sweep f32_4096 --configs "128,256,8,8,16,fsu" --reps 11 --budget 20 --total 20 2>&1 \
      | grep '"config"' | sed "s/^/$v $r /" >> "$OUT/f32ab.txt"
  done
done
echo "== f32: case variant round ms TFLOP/s"
sed 's/^\([a-zA-Z]*\) \([0-9]\).*"case":"\([^"]*\)".*"median_ms":\([^,]*\),.*"tflops":\([^,]*\),.*/\3 \1 \2 \4 \5/' "$OUT/f32ab.txt" | sort -s -k1,1
