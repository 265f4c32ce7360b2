#!/bin/sh
# Tenth session: the wave model's short-K rule (64 x 64 4 x 4 for 16 < K <= 160 and <= 8M
# outputs; new) against the build before (old), alternating: the two products it changes in the
# instances (1728 x 1100 x 144 of lm_3_12d; 13200 x 252 x 56, the pieces of a mera_open step),
# then lm_batch_likelihood_sentence_3_12d and str_nw_mera_open_26 (medians of four calls).
set -u
. tools/gpu_env.sh
einsum_ab_builds "$OUT/einsum.jsonl" 9 4 lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26
"$B/tenferro" einsum "$B/instances/lm_batch_likelihood_sentence_3_12d.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 --check | tail -1
"$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 --check | tail -1
python3 tools/einsum_ab_table.py "$OUT/einsum.jsonl" "old new"
