#!/bin/sh
# Fifteenth session, first call: (1) tools/gpu_checks.sh's run_checks: the fourteenth session's
# complex-division, max/min and range-probe fixes on the H200's driver (never run there);
# (2) tenferro_bench_vk: copy, add and div f32 2^28 (div is correctly rounded in software now);
# (3) wave quantization: the issue-5 shapes against shapes of whole waves (4096 x 4224: 1056
# tiles of 128 x 128 = 4 x 264 = 8 x 132), default configurations, two orders.
set -u
. tools/gpu_env.sh
. tools/gpu_checks.sh
G="$B/tenferro_bench_vk_gemm"
run_checks
timeout 120 "$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"
cases="f32_4096 f32:4096x4224x4096 f32:4096x3968x4096 f32_8192 f32:8192x8448x8192 c32_4096 c32:4096x4224x4096 f64_4096 f64:4096x4224x4096 c64_2048 c64:2048x2112x2048"
timeout 100 "$G" $cases --reps 15 > "$OUT/waves_a.txt" 2>&1
timeout 100 "$G" $(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ') --reps 15 > "$OUT/waves_b.txt" 2>&1
echo "== checks"; cat "$OUT/checks.txt"
echo "== vk_bench"; tail -16 "$OUT/vk_bench.txt"
echo "== waves a"; cat "$OUT/waves_a.txt"
echo "== waves b"; cat "$OUT/waves_b.txt"
