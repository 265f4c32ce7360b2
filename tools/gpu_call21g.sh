#!/bin/sh
# Twenty-first session, eighth call: the defaults after the narrow rows' extension and kF64Huge's
# extent bound, on the seventh call's shapes (one process, 10 timed calls each, median, two
# orders), and the tile tests on the H200. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmWaveModel*:GemmForcedTest.TallSkinny'
S="f64:11x415800x300 f64:16x200000x512 f64:32x100000x1024 f64:16x8192x2048 f64:415800x11x300 f64:200000x16x512 f64:12x50000x4096"
timeout 60 "$B/tenferro_bench_vk_gemm" $S --reps 2 > /dev/null 2>&1
timeout 100 "$B/tenferro_bench_vk_gemm" $S --reps 10 > "$OUT/gemm.txt" 2>&1
timeout 100 "$B/tenferro_bench_vk_gemm" $(echo $S | tr ' ' '\n' | tac | tr '\n' ' ') --reps 10 >> "$OUT/gemm.txt" 2>&1
cut -c1-300 "$OUT/checks.txt"
grep -E "median" "$OUT/gemm.txt" | sed 's/  */ /g' | cut -d' ' -f1,7-13
