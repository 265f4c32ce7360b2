#!/bin/sh
# Eighteenth session, second call: (1) the Ozaki-II split pass with 8 lines x 4 runs of 32 k per
# 32 invocations (GemmOzakiTest; f64 4096^3 / 8192^3 with 14 moduli, split only and whole, two
# orders); (2) coopmat_probe's fragments-from-global variants (GLOBAL, PD k steps in flight, no
# shared memory) against the shared-buffer kernel of ozaki_mm_nv.comp. Carry [".gl",
# ".gpubench", "build/coopmat_probe"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192" "14:6 14:0"
VARIANTS="i8_2442_128s:128:128:256 i8_2442_128g2:128:128:256 i8_2442_128g4:128:128:256
i8_2242_128g2:128:64:128 i8_2242_128g4:128:64:128 i8_1442_128g4:64:128:128 i8_4422_128g4:128:128:512" \
  sh tools/coopmat_probe/run.sh > /dev/null 2>&1
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
echo "== probe"; cut -c1-150 "$OUT/coopmat_probe.txt"
