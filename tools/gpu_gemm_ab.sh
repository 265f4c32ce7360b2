#!/bin/sh
# A/B of gemm shader changes on the lent GPU (docs/gemm.md: every change to shaders/gemm/*.comp
# is timed this way before it lands, large products included: NVIDIA's driver schedules the
# whole kernel anew, and a change aimed at small products cost f32 4096^3 14 % in the ninth
# session without anyone seeing it). Builds to compare: .gpubench/tenferro_bench_vk_gemm (new)
# and every .gpubench/NAME_bench_vk_gemm (e.g. old_: the build before the change, staged from a
# git worktree). Warms every build, then three alternating rounds of the large defaults and the
# small products in a stream. Run: sh tools/gpu_gemm_ab.sh (carry [".gl", ".gpubench"]).
set -u
. tools/gpu_env.sh
V="new"
for f in "$B"/*_bench_vk_gemm; do [ -f "$f" ] && [ "$f" != "$B/tenferro_bench_vk_gemm" ] && V="$(basename "$f" _bench_vk_gemm) $V"; done
bin() { [ "$1" = new ] && echo "$B/tenferro_bench_vk_gemm" || echo "$B/$1_bench_vk_gemm"; }
large="f32_4096 f32_8192 f64_4096 c32_4096 c64_2048 f64_batched"
small="f64_lm_tiny f64_lm_k11 f64_chain f64_128 f32_128 f64_512"
for v in $V; do
  timeout 90 "$(bin $v)" $large --reps 2 > /dev/null 2>&1
  timeout 60 "$(bin $v)" $small --stream --reps 2 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in $V; do
    timeout 120 "$(bin $v)" $large --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> "$OUT/large.txt"
    timeout 60 "$(bin $v)" $small --stream --reps 15 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> "$OUT/small.txt"
  done
done
echo "== build round case config ms TFLOP/s (large: one call + synchronize)"
sort -s -k3,3 "$OUT/large.txt" | awk '{print $1, $2, $3, $10, $12, $14}'
echo "== build round case config ms (small: per call in a stream)"
sort -s -k3,3 "$OUT/small.txt" | awk '{print $1, $2, $3, $10, $12}'
