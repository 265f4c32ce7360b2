#!/bin/sh
# Eighteenth session, first call: the Ozaki-II split and combine passes with one remainder per
# residue / Garner digit and the split's reads along the unit stride (GemmOzakiTest and the
# Garner tables' test on the H200, which also checks the seventeenth session's last fold);
# f64 4096^3 and 8192^3 with 12 and 14 moduli and their pass breakdown (--ozaki-skip N:S; S bits:
# 1 scan + split, 2 residue products, 4 combine skipped) against the FMA kernels (ozaki=0), two
# orders, one process per setting; PyTorch (peer_bench.py gemm) in the same call.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "0 12 14 14:6 14:5 14:3"
gemm_peers_report
