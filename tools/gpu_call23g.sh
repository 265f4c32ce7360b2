#!/bin/sh
# Twenty-third session, call 7 (carry [".gl", ".gpubench"]): the certified scale pass with eight
# chunk-sum loads in flight (was one at a time: 31-32 us per operand at 4096^3 against 12 without
# the sums), GemmOzakiCertifiedTest.* on the H200, then the build before ($B/old_bench_vk_gemm)
# against this one on f64 4096^3 and 2048^3 (certified default), four alternating rounds of 7.
# Call 8 (the machine still warm) ran eight more rounds of f64 4096^3 alone (--reps 9) inline:
#   . tools/gpu_env.sh; for r in 1 .. 8; for v in old new: BIN f64_4096 --reps 9 >> $OUT/ab2.txt
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzakiCertifiedTest.*'
bin() { [ "$1" = new ] && echo "$B/tenferro_bench_vk_gemm" || echo "$B/$1_bench_vk_gemm"; }
for v in old new; do timeout 60 "$(bin $v)" f64_4096 f64_2048 --reps 2 > /dev/null 2>&1; done
for r in 1 2 3 4; do
  for v in old new; do
    timeout 60 "$(bin $v)" f64_4096 f64_2048 --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> "$OUT/ab.txt"
  done
done
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== A/B (build round case ms TFLOP/s)"; sort -s -k3,3 "$OUT/ab.txt" | awk '{print $1, $2, $3, $12, $14}'
