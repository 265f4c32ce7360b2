#!/bin/sh
# Diagnostic run on the lent GPU (bench/RESULTS.md, fifth session): the cooperative-matrix shapes
# the driver lists, and the largest GEMM of str_nw_mera_closed_120 (step 100: 399 x 270 x 4320 x
# 27 f64, run as two batch pieces of 14 and 13) on several tiles, forced through
# TENFERRO_VK_GEMM_TILE (compact column-major operands). About 60 seconds.
set -u
. tools/gpu_env.sh
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
for shape in f64:399x270x4320x14 f64:399x270x4320x27 f64:270x399x4320x27; do
  timeout 20 "$B/tenferro_bench_vk_gemm" $shape --reps 7 >> "$OUT/mera_gemm.txt" 2>&1
  for cfg in 64,128,16,8,8,fs,1 128,64,16,8,4,wfs,1 64,64,16,4,4,-,1 64,64,16,4,4,f,1 64,64,16,8,8,fs,1 \
    128,64,16,8,8,fs,1 128,128,16,8,8,fs,1 64,32,16,4,4,f,1; do
    TENFERRO_VK_GEMM_TILE=$cfg timeout 20 "$B/tenferro_bench_vk_gemm" $shape --reps 7 >> "$OUT/mera_gemm.txt" 2>&1
  done
done
grep -i cooperative "$OUT/devices.txt"
grep median "$OUT/mera_gemm.txt" | sed 's/  */ /g' | cut -d' ' -f1,7-13
