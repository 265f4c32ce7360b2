#!/bin/sh
# Nineteenth session, fifth call (figures of record): the opt-in Ozaki-II product at f64 4096^3
# and 8192^3 (the FMA kernels 0, the time model with 14 moduli, forced 14 and 12; two orders),
# then tools/gpu_bench.sh (issue 5's cases, the einsum instances, PyTorch and JAX in the same
# call); everything in results.tgz. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
ozaki_rounds "f64_4096 f64:8192x8192x8192" "0 14 14:0 12:0"
echo "== ozaki"; gemm_summary
sh tools/gpu_bench.sh
