#!/bin/sh
# Thirtieth session, call 3 (carry [".gl", ".gpubench"]): f32 / c32 computed in f64 / c64 where the
# driver flushes f32 subnormals, with the wide variant's own exp (w_exp, analytic.comp): call 2 again.
# 1. the op-case files on both backends by default (the "w" variants taken);
# 2. the f32 analytic accuracy sweep (vk_analytic_accuracy_test) with the "w" variants;
# 3. two einsum instances in f32 and c32 with --check (their K = 1 steps are wide muls);
# 4. tenferro_bench_vk (copy, add, div, exp, sin, reduce_sum f32 2^28) with the "w" variants
#    and without (TENFERRO_VK_F32_VIA_F64=0), alternating, two rounds each.
set -u
. tools/gpu_env.sh
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
timeout 200 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
TENFERRO_ACCURACY_POINTS=1048576 timeout 200 "$B/vk_analytic_accuracy_test" > "$OUT/accuracy.txt" 2>&1
for i in lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26; do
  for t in f32 c32; do
    timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype $t --check --repeat 3 \
      > "$OUT/einsum_${i}_$t.txt" 2>&1
  done
done
bench_vk_modes "$OUT/bench.txt" 2 120 2 0
grep "f32 denormals" "$OUT/devices.txt"
grep -h "^FAIL" "$OUT/cases.txt" | head; tail -1 "$OUT/cases.txt"
grep -hE "^(instance|check|time)" "$OUT"/einsum_*.txt
grep -E "^\[  (PASSED|FAILED) |flush|subnormal" "$OUT/accuracy.txt" | head -20
grep -E "^== |\"op\":\"(copy|add|div|exp|sin|reduce_sum)\"" "$OUT/bench.txt" | sed -E "s/\"(dtype|shape|layout|backend|threads)\":[^,]*,//g" | cut -c1-150
