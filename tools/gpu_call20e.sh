#!/bin/sh
# Twentieth session, fifth and sixth calls (the sixth with the q unit loaded next to the
# scale word in the split): certified products with A's rows scaled by their sums
# (ozaki_bits_certified): the Ozaki tests on both residue kernels, then f64 4096^3, 8192^3 and
# 6144^3 with the default against the fourth call's build (old_tenferro_bench_vk_gemm: both
# operands scaled by their largest), two orders; err is the largest |got - want| / sum |a||b|
# of 16 sampled outputs. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*Ozaki*'
cases="f64_4096 f64:8192x8192x8192 f64:6144x6144x6144"
timeout 60 "$B/tenferro_bench_vk_gemm" $cases --reps 1 > /dev/null 2>&1
for o in a b; do
  for v in old new; do
    bin="$B/tenferro_bench_vk_gemm"; [ $v = old ] && bin="$B/old_tenferro_bench_vk_gemm"
    echo "== $v order $o" >> "$OUT/gemm.txt"
    timeout 90 "$bin" $cases --reps 10 >> "$OUT/gemm.txt" 2>&1
  done
  cases=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
done
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
