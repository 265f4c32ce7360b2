#!/bin/sh
# Twenty-fifth session, call 3 (carry [".gl", ".gpubench"]): dot_general packs an operand whose
# unit stride is a batch axis in large products (lower_dot_general; str_nw_mera_closed_120's 540 x
# 270 x 136 x 216 step): --check and device memory, the per-dispatch profile in step order, then
# TENFERRO_DOT_BATCH_REPACK 0 / 1 in alternating rounds (mera_open unchanged: a control).
set -u
. tools/gpu_env.sh
i=str_nw_mera_closed_120
timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 \
  --check --json > "$OUT/${i}_check.json" 2>&1
TENFERRO_EINSUM_INTERLEAVE=0 timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" \
  --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/mera_closed_profile.txt" 2>&1
OUT=$OUT sh tools/gpu_einsum_ab.sh TENFERRO_DOT_BATCH_REPACK "0 1" 8 str_nw_mera_closed_120 str_nw_mera_open_26 \
  > "$OUT/ab_table.txt" 2>&1
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['instance'], d['median_seconds'], d['check'], d['device_memory'])" \
  "$OUT/${i}_check.json" 2>&1 | cut -c1-300
grep -E "^time|busy|gemm:|permute:" "$OUT/mera_closed_profile.txt"
sed -n '/^dispatches/,$p' "$OUT/mera_closed_profile.txt" | sed -n 20,24p
echo "== ab"; cat "$OUT/ab_table.txt"
