#!/bin/sh
# Twenty-fourth session, call 7 (carry [".gl", ".gpubench"]): the split pass with the real parts'
# digits, q plane and residues in the f64-only pass's text (complex sets 1 and 2 after; the
# residue loop one function), GemmOzaki* on the H200, 620b554 ($B/old_bench_vk_gemm) against this
# build on f64 4096^3 / 2048^3 in six rounds of alternating order (calls 1-6 ran old first: is
# f64's 1-2 % the order?), and the certified f32 / complex products in two processes (the first
# compiles the new pipelines: NVIDIA runs a pipeline slower in the process that first compiled
# it, call 6's first process 3x).
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
ab_gemm "f64_4096 f64_2048" 6 alt
for r in 1 2; do
  timeout 120 "$B/tenferro_bench_vk_gemm" f32_4096 f32_8192 c32_4096 c64_2048 --reps 7 2>&1 | grep ' median ' |
    sed "s/^/$r /" >> "$OUT/complex.txt"
done
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== A/B (build round case ms TFLOP/s check)"; ab_gemm_table
echo "== this build (process case ms TFLOP/s check)"; awk '{print $1, $2, $11, $13, $NF}' "$OUT/complex.txt"
