#!/bin/sh
# Twenty-fourth session, calls 1 and 2 (carry [".gl", ".gpubench"]): certified complex products
# on the Ozaki-II scheme (three residue products per modulus). GemmOzaki* on the H200 (both
# residue kernels), then the build before ($B/old_bench_vk_gemm: complex products on the FMA
# kernels) against this one, three alternating rounds of 7, on the cases given (f64 among them:
# the shared passes' generalization must not cost f64).
#   call 1: sh tools/gpu_call24a.sh "f64_4096 f64_2048 c64_2048 c64_4096 c64_1024"
#   call 2: sh tools/gpu_call24a.sh "f64_4096 f64_2048 c64_2048 c64_4096 c32_4096" (the split's
#           plane-set loop unrolled; c32 certified on 8 moduli)
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
ab_gemm "$1" 3
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== A/B (build round case ms TFLOP/s check)"; ab_gemm_table
