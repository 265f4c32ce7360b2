#!/bin/sh
# Thirtieth session, call 2 (carry [".gl", ".gpubench"]): f32 / c32 computed in f64 / c64 where the
# driver flushes f32 subnormals (the "w" variants, docs/accuracy.md). On the H200:
# 1. the op-case files on both backends by default (the "w" variants taken), and
#    tests/cases/subnormal.json also with TENFERRO_VK_F32_VIA_F64=0 (the f32 kernels: expected to
#    fail there, showing what the file checks); the audit's differential file, CPU against GPU;
# 2. the f32 analytic accuracy sweep (vk_analytic_accuracy_test) with the "w" variants;
# 3. tenferro_bench_vk (copy, add, div, exp, sin, reduce_sum f32 2^28) with the "w" variants
#    and without (TENFERRO_VK_F32_VIA_F64=0), alternating, two rounds each.
set -u
. tools/gpu_env.sh
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
timeout 200 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
TENFERRO_VK_F32_VIA_F64=0 timeout 60 "$B/tenferro" eval tests/cases/subnormal.json --backend vulkan > "$OUT/subnormal_off.txt" 2>&1
for be in cpu vulkan; do timeout 100 "$B/tenferro" eval "$B/audit/d1.json" --backend $be > "$OUT/d1_$be.txt" 2>&1; done
TENFERRO_ACCURACY_POINTS=1048576 timeout 200 "$B/vk_analytic_accuracy_test" > "$OUT/accuracy.txt" 2>&1
bench_vk_modes "$OUT/bench.txt" 2 120 2 0
grep "f32 denormals" "$OUT/devices.txt"
grep -h "^FAIL" "$OUT/cases.txt" | head; tail -1 "$OUT/cases.txt"
tail -1 "$OUT/subnormal_off.txt"
grep -E "^\[  (PASSED|FAILED) |flush|subnormal" "$OUT/accuracy.txt" | head -20
grep -E "^== |\"op\":\"(copy|add|div|exp|sin|reduce_sum)\"" "$OUT/bench.txt" | sed -E "s/\"(dtype|shape|layout|backend|threads)\":[^,]*,//g" | cut -c1-150
