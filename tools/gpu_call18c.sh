#!/bin/sh
# Eighteenth session, third call: the Ozaki-II split pass with digits once per element, a rolled plane
# loop with a reciprocal remainder, 8 lines x 4 runs of 16 k per 32 invocations (GemmOzakiTest;
# f64 4096^3 / 8192^3 with 14 moduli, split only and whole, two orders). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "14:6 14:3 14:0"
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
