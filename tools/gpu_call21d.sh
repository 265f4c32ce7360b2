#!/bin/sh
# Twenty-first session, fourth call: dot_general_into's reordering of a packed operand's free
# axes by out's strides (new, $B/tenferro) against the third call's build (old_tenferro): every
# GEMM-heavy einsum instance once with --check, then alternating rounds. Carry [".gl", ".gpubench"].
# The reordering measured here was not kept (bench/RESULTS.md, twenty-first session): the
# build it ran is not in the tree.
set -u
. tools/gpu_env.sh
for i in str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp lm_batch_likelihood_brackets_4_4d \
  lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d str_mps_varying_inner_product_200 \
  str_matrix_chain_multiplication_100 tensornetwork_permutation_focus_step409_316 tensornetwork_permutation_light_415; do
  timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 \
    --check | grep -E "^check" | sed "s/^/$i /" >> "$OUT/checks.txt"
done
TENFERRO_EINSUM_INTERLEAVE=0 timeout 120 "$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan \
  --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/mera_open_profile.txt" 2>&1
einsum_ab_builds "$OUT/ab.jsonl" 7 3 str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp \
  tensornetwork_permutation_light_415 lm_batch_likelihood_brackets_4_4d
cat "$OUT/checks.txt"
sed -n '/^dispatches/,$p' "$OUT/mera_open_profile.txt"
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "old new"
