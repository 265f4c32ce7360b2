#!/bin/sh
# Thirtieth session, call 7 (carry [".gl", ".gpubench"]): c_mul's inf / NaN path in a real branch
# ([[dont_flatten]], complex.glsl) against the build before (.gpubench/old_bench): c32 mul on
# the wide variant and c64 mul (tenferro_bench_vk rows mul_c32, mul_c64, add_c32), one run each.
set -u
. tools/gpu_env.sh
for v in old_bench tenferro_bench_vk; do
  echo "== $v" >> "$OUT/bench.txt"
  timeout 100 "$B/$v" >> "$OUT/bench.txt" 2>&1
done
grep -E "^== |\"op\":\"(add|exp_c32|mul_c32|mul_c64|add_c32)\"" "$OUT/bench.txt" | sed -E "s/\"(dtype|shape|layout|backend|threads)\":[^,]*,//g" | cut -c1-100
