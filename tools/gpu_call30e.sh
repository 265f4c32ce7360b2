#!/bin/sh
# Thirtieth session, call 5 (carry [".gl", ".gpubench"]): the cost of the wide variants on c32
# (exp, mul) and on scatter-add f32, besides call 3's rows: tenferro_bench_vk with them
# (TENFERRO_VK_F32_VIA_F64 unset: the H200's default) and without (=0), alternating, two rounds.
set -u
. tools/gpu_env.sh
bench_vk_modes "$OUT/bench.txt" 2 150 2 0
grep -E "^== |\"op\":\"(copy|add|div|exp|sin|reduce_sum|exp_c32|mul_c32|scatter_add)\"" "$OUT/bench.txt" | sed -E "s/\"(dtype|shape|layout|backend|threads)\":[^,]*,//g" | cut -c1-110
