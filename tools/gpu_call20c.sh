#!/bin/sh
# Twentieth session, third call: the certified default's choices beyond 4096^3 / 8192^3 (the
# FMA kernels 0 against the default 1, where the model takes the scheme: 6144^3, 2048 x 2048 x
# 8192, 16384 x 2048 x 4096; where it does not: 4096 x 4096 x 2048), and the cost of a failed
# certificate (--wide: rows and columns spanning 2^240, f64 4096^3, 0 against 1), two orders.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
ozaki_rounds "f64:6144x6144x6144 f64:2048x2048x8192 f64:16384x2048x4096 f64:4096x4096x2048" "0 1"
for o in a b; do
  for s in 0 1; do
    echo "== wide ozaki=$s order $o" >> "$OUT/gemm.txt"
    TENFERRO_VK_GEMM_OZAKI=$s timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --wide --reps 10 >> "$OUT/gemm.txt" 2>&1
  done
done
echo "== gemm"; gemm_summary
