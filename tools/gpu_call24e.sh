#!/bin/sh
# Twenty-fourth session, calls 5 and 6 (carry [".gl", ".gpubench"]): GemmOzaki* on the H200, then
# 620b554 ($B/old_bench_vk_gemm) against this build on f64 4096^3 and 2048^3 in alternating rounds
# of 7, and this build's certified f32 / complex products in two processes.
#   call 5: the split pass writing the q plane after the first set's digits (the f64-only order);
#           f64 4096^3 still 0.6-2 % behind, c32 4096^3 21.3 ms and c64 2048^3 12.0 ms (was 7.3
#           / 2.4): reverted.
#   call 6: f64 on its own variant (ozaki_f64: no complex or f32 code; ozaki_ext the others).
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
ab_gemm "f64_4096 f64_2048" 4
for r in 1 2; do
  timeout 120 "$B/tenferro_bench_vk_gemm" f32_4096 f32_8192 c32_4096 c64_2048 --reps 7 2>&1 | grep ' median ' >> "$OUT/complex.txt"
done
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== A/B (build round case ms TFLOP/s check)"; ab_gemm_table
echo "== this build"; awk '{print $1, $10, $12, $NF}' "$OUT/complex.txt"
