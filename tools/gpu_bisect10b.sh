#!/bin/sh
# Tenth session: which of 2d81afb's shifts perturbs f32 4096^3? E = HEAD with the full-slice count
# by division (K / bk) again, F = HEAD with the tile and slice counts by division again; C (all
# three as before) was as fast as old in the previous call. Alternating, f32 large and the small
# products in a stream (the change's gains).
set -u
. tools/gpu_env.sh
bin() { case $1 in new) echo "$B/tenferro_bench_vk_gemm";; old) echo "$B/old_bench_vk_gemm";; *) echo "$B/var$1_bench_vk_gemm";; esac; }
V="old new C E F"
for v in $V; do
  timeout 60 "$(bin $v)" sweep f32_4096 f32_8192 --configs "128,256,8,8,16,fsu" --reps 2 > /dev/null 2>&1
  timeout 60 "$(bin $v)" f64_lm_tiny f64_lm_k11 f64_chain f64_128 f32_128 --stream --reps 2 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in $V; do
    cs="f32_4096"; [ $r = 2 ] && cs="f32_4096 f32_8192"
    timeout 60 "$(bin $v)" sweep $cs --configs "128,256,8,8,16,fsu" --reps 11 --budget 20 --total 20 2>&1 \
      | grep '"config"' | sed "s/^/$v $r /" >> "$OUT/f32ab.txt"
    [ $r = 3 ] && continue
    timeout 60 "$(bin $v)" f64_lm_tiny f64_lm_k11 f64_chain f64_128 f32_128 --stream --reps 15 2>&1 \
      | grep -E '^(f32|f64)_.*median' | sed "s/^/$v $r /" >> "$OUT/small.txt"
  done
done
echo "== f32: case variant round ms TFLOP/s"
sed 's/^\([a-zA-Z]*\) \([0-9]\).*"case":"\([^"]*\)".*"median_ms":\([^,]*\),.*"tflops":\([^,]*\),.*/\3 \1 \2 \4 \5/' "$OUT/f32ab.txt" | sort -s -k1,1
echo "== small in stream (ms per call)"; sort -s -k3,3 "$OUT/small.txt" | awk '{print $3, $1, $2, $12}'
