#!/bin/sh
# Eleventh session: the instances' two layouts (--layout colmajor: the column-major variant,
# the peers' memory order; rowmajor: format_string read column-major) with and without packing
# in-place operands whose unit-stride axis is a batch axis (TF_PACK_BU, experiment), alternating.
. tools/gpu_env.sh
F=$OUT/layout.jsonl
: > "$F"
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
for f in $B/instances/*.json; do
  i=$(basename "$f" .json)
  [ "$i" = permutation_patterns ] && continue
  r=0
  while [ $r -lt 3 ]; do
    for v in rowmajor:0 rowmajor:1 colmajor:0 colmajor:1; do
      L=${v%:*} P=${v#*:}
      TF_PACK_BU=$P timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
        --layout "$L" --repeat 10 --json 2>>"$OUT/err.txt" | sed "s/^{/{\"value\":\"$v\",\"round\":$r,/" >> "$F"
    done
    r=$((r + 1))
  done
done
for v in rowmajor:0 rowmajor:1 colmajor:0 colmajor:1; do
  L=${v%:*} P=${v#*:}
  for i in bin_batched_matmul_b32_m128_n128_k128 lm_batch_likelihood_sentence_3_12d str_mps_varying_inner_product_200 str_nw_mera_open_26; do
    TF_PACK_BU=$P "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size \
      --layout "$L" --repeat 5 --profile --check > "$OUT/profile_${i}_$L$P.txt" 2>&1
  done
done
python3 tools/einsum_ab_table.py "$F" "rowmajor:0 rowmajor:1 colmajor:0 colmajor:1" | tee "$OUT/table.txt"
