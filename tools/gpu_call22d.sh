#!/bin/sh
# Twenty-second session, last call: vk_gemm_gpu_test (all but the forced configurations) and
# vk_ozaki_params_test on the H200, then the figure-of-record run (tools/gpu_bench.sh: PyTorch
# and JAX in the same run). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_ozaki_params_test '*'
gtest_check vk_gemm_gpu_test '-GemmForcedTest.*'
cp "$OUT/checks.txt" /tmp/checks22.txt
sh tools/gpu_bench.sh
echo "== checks"; cut -c1-300 /tmp/checks22.txt
