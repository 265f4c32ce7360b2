#!/bin/sh
# Eighteenth session, eighth call: the residue kernel with the next slice's global loads after
# the first k step of products (coopmat_probe's LATE) and the epilogue's remainders by a
# reciprocal (tfo_mod_r): GemmOzakiTest on both kernels; f64 4096^3 and 8192^3 on the FMA
# kernels (0), through the model with 14 moduli (14) and forced with 14 and 12 (14:0, 12:0),
# two orders; PyTorch (peer_bench.py gemm) in the same call. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "0 14 14:0 12:0"
gemm_peers_report
