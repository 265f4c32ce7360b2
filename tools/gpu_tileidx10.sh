#!/bin/sh
# Tenth session: f32 4096^3 lost 14 % with the prologue's division change (2d81afb; first call
# this session: 44.3 -> 38.3 TFLOP/s, every round). Four builds alternating: old (8056eb3), new
# (HEAD: tile index by divmod()), A (tile index in 32-bit integers, no branch), B (HEAD with the
# tile index by 64-bit division as before); f32 large, f64 / c32 large, small products in a
# stream. The shader caches of f32 4096^3 come back for the disassembly (tools/sass_extract.py).
set -u
. tools/gpu_env.sh
bin() { case $1 in new) echo "$B/tenferro_bench_vk_gemm";; old) echo "$B/old_bench_vk_gemm";; *) echo "$B/var$1_bench_vk_gemm";; esac; }
V="old new A B"
mkdir -p "$OUT/cache"
for v in $V; do
  d=/tmp/glc_$v; rm -rf "$d"; mkdir -p "$d"
  __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    timeout 60 "$(bin $v)" sweep f32_4096 --configs "128,256,8,8,16,fsu" --reps 2 --budget 20 --total 20 > /dev/null 2>&1
  find "$d" -name '*.bin' -exec cp {} "$OUT/cache/$v.bin" \;
  timeout 60 "$(bin $v)" f64_4096 c32_4096 --reps 2 > /dev/null 2>&1
  timeout 60 "$(bin $v)" f64_lm_tiny f64_lm_b12 f64_lm_k11 f64_chain f64_128 f32_128 --stream --reps 2 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in $V; do
    timeout 60 "$(bin $v)" sweep f32_4096 f32_8192 --configs "128,256,8,8,16,fsu" --reps 11 --budget 20 --total 20 2>&1 \
      | grep '"config"' | sed "s/^/$v $r /" >> "$OUT/f32ab.txt"
  done
done
for r in 1 2; do
  for v in $V; do
    timeout 60 "$(bin $v)" f64_4096 c32_4096 --reps 7 2>&1 | grep -E '^(f64|c32)_' | sed "s/^/$v $r /" >> "$OUT/large.txt"
    timeout 60 "$(bin $v)" f64_lm_tiny f64_lm_b12 f64_lm_k11 f64_chain f64_128 f32_128 --stream --reps 15 2>&1 \
      | grep -E '^(f32|f64)_' | sed "s/^/$v $r /" >> "$OUT/small.txt"
  done
done
echo "== f32: case variant round ms TFLOP/s"
sed 's/^\([a-zA-Z]*\) \([0-9]\).*"case":"\([^"]*\)".*"median_ms":\([^,]*\),.*"tflops":\([^,]*\),.*/\3 \1 \2 \4 \5/' "$OUT/f32ab.txt" | sort -s -k1,1
echo "== large"; sort -s -k3,3 "$OUT/large.txt" | cut -c1-110
echo "== small in stream"; sort -s -k3,3 "$OUT/small.txt" | cut -c1-160
