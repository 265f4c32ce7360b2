#!/bin/sh
# Twentieth session, first call: the certified Ozaki-II product (the new f64 default) on the
# H200. The whole vk_gemm_gpu_test (GemmOzakiCertifiedTest on both residue kernels), then f64
# 4096^3 and 8192^3 with the FMA kernels (0), the certified default (1) and the normwise 14
# moduli (14), one process per setting, two orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "0 1 14"
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== ozaki"; gemm_summary
