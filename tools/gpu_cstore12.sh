#!/bin/sh
# Written in the twelfth session for the next one (no device time was left to run it): why is the
# chained C slow? The same products with C's view over a compact [M, N, B] storage as a plain
# column-major C, with n at unit stride ("transposed"), and as one-chain-per-group chained C of
# either pattern (tenferro_bench_vk_gemm --c-layout). Stage: sh tools/gpu_bench_stage.sh.
# Shapes: f64 4096^3, str_nw_mera_open_26's last product and its 20 GFLOP one,
# str_nw_mera_closed_120's batched one, f32 4096^3.
set -u
. tools/gpu_env.sh
cases="f64_4096 f64:177147x243x50 f64:990x2187x4620 f64:540x270x136x216 f32_4096"
for l in compact transposed chained chained_t; do
  timeout 40 "$B/tenferro_bench_vk_gemm" $cases --reps 5 --c-layout $l 2>&1 | grep ' median ' | sed "s/^/$l /" >> "$OUT/cstore.txt"
done
sort -s -k2,2 "$OUT/cstore.txt" | sed 's/  */ /g' | cut -c1-170
