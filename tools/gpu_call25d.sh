#!/bin/sh
# Twenty-fifth session, call 4 (carry [".gl", ".gpubench"]): the final code's checks on the H200
# (GemmOzaki*, with the fast-f64 gate's test; einsum's unit-stride test), then the figure run
# (tools/gpu_bench.sh: our benchmarks with PyTorch and JAX in the same call).
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
gtest_check einsum_test '*UnitStride*:*Network*'
OUT=$OUT sh tools/gpu_bench.sh
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
