#!/bin/sh
# Twentieth session, fourth call: the certified product's failure history (an outcome word in
# host-visible memory; a shape whose certificate failed skips the scheme for 16 calls): the
# Ozaki tests on both residue kernels, then f64 4096^3 with the default against the third
# call's build (old_tenferro_bench_vk_gemm: no history, no outcome word), well-scaled and
# --wide, two orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*Ozaki*'
timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 > /dev/null 2>&1
for o in a b; do
  for w in "" --wide; do
    for v in old new; do
      bin="$B/tenferro_bench_vk_gemm"; [ $v = old ] && bin="$B/old_tenferro_bench_vk_gemm"
      echo "== $v $w order $o" >> "$OUT/gemm.txt"
      timeout 60 "$bin" f64_4096 $w --reps 10 >> "$OUT/gemm.txt" 2>&1
    done
  done
done
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
