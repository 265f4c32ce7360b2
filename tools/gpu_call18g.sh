#!/bin/sh
# Eighteenth session, seventh call: the refitted time model (ozaki_faster) on the H200:
# TENFERRO_VK_GEMM_OZAKI=14 and 16 against the FMA kernels (0) at f64 4096^3, 8192^3, 2048^3 and
# 1024 x 256^3, two orders (the model takes 14 at 4096^3, 14 and 16 at 8192^3, neither elsewhere).
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched" "0 14 16"
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
