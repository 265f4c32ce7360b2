#!/bin/sh
# Thirtieth session, call 6 (carry [".gl", ".gpubench"]): why c32 mul is 3.6x slower in the wide
# variant (call 5). 1. The driver's statistics (registers, local memory) of the c32 / c64 / wide
# pipelines (TENFERRO_VK_PIPELINE_STATS=1 on .gpubench/st/st.json, both modes). 2.
# tenferro_bench_vk with mul_c64 and add_c32 rows, wide and plain, and a diagnostic build
# (.gpubench/exp_bench: the wide c_mul without its inf / NaN special path, wrong for those
# inputs, timing only).
set -u
. tools/gpu_env.sh
for m in 2 0; do
  TENFERRO_VK_F32_VIA_F64=$m TENFERRO_VK_PIPELINE_STATS=1 timeout 60 "$B/tenferro" eval "$B/st/st.json" --backend vulkan > "$OUT/stats_$m.txt" 2>&1
done
for v in tenferro_bench_vk exp_bench; do
  for m in 2 0; do
    [ $v = exp_bench ] && [ $m = 0 ] && continue
    echo "== $v TENFERRO_VK_F32_VIA_F64=$m" >> "$OUT/bench.txt"
    TENFERRO_VK_F32_VIA_F64=$m timeout 150 "$B/$v" >> "$OUT/bench.txt" 2>&1
  done
done
grep -v "^PASS" "$OUT/stats_2.txt" | grep -iE "binary_c|regist|local|spill" | head -30
grep -E "^== |\"op\":\"(add|exp_c32|mul_c32|mul_c64|add_c32)\"" "$OUT/bench.txt" | sed -E "s/\"(dtype|shape|layout|backend|threads)\":[^,]*,//g" | cut -c1-100
