#!/bin/sh
# Eighteenth session, seventh call: the refitted time model (ozaki_faster) on the H200:
# TENFERRO_VK_GEMM_OZAKI=14 and 16 against the FMA kernels (0) at f64 4096^3, 8192^3, 2048^3 and
# 1024 x 256^3, two orders (the model takes 14 at 4096^3, 14 and 16 at 8192^3, neither elsewhere);
# the split with unconditional (clamped) loads: 14 moduli forced whole (14:0), scan + scale +
# split (14:6) and scan + scale (14:14).
# Carry [".gl", ".gpubench", "build/coopmat_probe"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
ozaki_rounds "f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched" "0 14 16 14:0 14:6 14:14"
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
# Then coopmat_probe's remaining single-buffer variants (BK 64; 2 x 4 accumulators per subgroup
# in two tilings; the next slice's global loads after the first k step, LATE) against the
# residue kernel's configuration (carry also "build/coopmat_probe").
VARIANTS="i8_2442_128s:128:128:256 i8_2442_64s:128:128:256 i8_4224_128s:128:128:256
i8_2424_128s:64:256:256 i8_2442_128sl:128:128:256" sh tools/coopmat_probe/run.sh > /dev/null 2>&1
echo "== probe"; cut -c1-150 "$OUT/coopmat_probe.txt"
