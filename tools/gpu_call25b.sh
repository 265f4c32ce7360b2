#!/bin/sh
# Twenty-fifth session, call 2 (carry [".gl", ".gpubench"]): the unit-stride label first in a
# chained result's free group (einsum, unit_stride_first): --check and device memory of the two
# MERA instances, str_nw_mera_closed_120's per-dispatch profile in step order, then
# TENFERRO_EINSUM_UNIT_STRIDE 0 / 1 in alternating rounds; and C's store patterns on mera_open's
# 177147 x 243 x 50 (compact, transposed, chained, chained_t).
set -u
. tools/gpu_env.sh
for i in str_nw_mera_closed_120 str_nw_mera_open_26; do
  timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 \
    --check --json > "$OUT/${i}_check.json" 2>&1
done
TENFERRO_EINSUM_INTERLEAVE=0 timeout 120 "$B/tenferro" einsum "$B/instances/str_nw_mera_closed_120.json" \
  --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/mera_closed_profile.txt" 2>&1
OUT=$OUT sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_UNIT_STRIDE "0 1" 6 str_nw_mera_closed_120 str_nw_mera_open_26 \
  > "$OUT/ab_table.txt" 2>&1
for cl in compact transposed chained chained_t; do
  timeout 60 "$B/tenferro_bench_vk_gemm" f64:177147x243x50 f64:540x270x136x216 --reps 10 --c-layout $cl 2>&1 |
    grep ' median ' | sed "s/^/$cl /" >> "$OUT/clayout.txt"
done
for i in str_nw_mera_closed_120 str_nw_mera_open_26; do
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['instance'], d['median_seconds'], d['check'], d['device_memory'])" \
    "$OUT/${i}_check.json" 2>&1 | cut -c1-300
done
grep -E "^time|busy|gemm:|permute:" "$OUT/mera_closed_profile.txt"
sed -n '/^dispatches/,$p' "$OUT/mera_closed_profile.txt" | tail -12
echo "== ab"; cat "$OUT/ab_table.txt"
echo "== c layouts"; awk '{print $1, $2, $11, $13}' "$OUT/clayout.txt"
