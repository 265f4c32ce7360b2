#!/bin/sh
# Fourteenth session, last call: correctness on the H200's driver first (vk_gemm_gpu_test with
# the new f32 / c32 tiles, vk_analytic_accuracy_test, vk_elementwise_test, the op-case files and
# tools/probe_range.py's range probe, CPU against Vulkan), then the figure-of-record run
# (tools/gpu_bench.sh), which archives everything under $OUT.
set -u
. tools/gpu_env.sh
. tools/gpu_checks.sh
run_checks
sh tools/gpu_bench.sh
echo "== checks"; tar xzf "$OUT/results.tgz" -O ./checks.txt 2>/dev/null | cut -c1-400
