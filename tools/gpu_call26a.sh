#!/bin/sh
# Twenty-sixth session, call 1 (carry [".gl", ".gpubench"]): einsum's reordering now keeps every
# order within the planned peak by simulation instead of dropping it whole (it was dropped for
# the lm_* instances, gm_queen5_5_3 and str_mps_varying_inner_product_200): alternating calls
# with it on and off (TENFERRO_EINSUM_INTERLEAVE "1 0", which for these instances is the new
# code against the old); intermediates stored in their consumer's order from 1 MiB where the
# GEMM writes that order in stride chains (TENFERRO_EINSUM_CONSUMER_ORDER 1 MiB against 64 MiB,
# the old rule); then where lm_batch_likelihood_sentence_3_12d's GPU time goes, per dispatch.
set -u
. tools/gpu_env.sh
sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_INTERLEAVE "1 0" 5 lm_batch_likelihood_sentence_3_12d \
  lm_batch_likelihood_sentence_4_4d lm_batch_likelihood_brackets_4_4d gm_queen5_5_3.wcsp \
  str_mps_varying_inner_product_200 > "$OUT/ab_interleave.txt" 2>&1
mv "$OUT/ab.jsonl" "$OUT/ab_interleave.jsonl"
sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_CONSUMER_ORDER "1048576 67108864" 5 lm_batch_likelihood_sentence_3_12d \
  lm_batch_likelihood_sentence_4_4d lm_batch_likelihood_brackets_4_4d str_nw_mera_open_26 \
  str_nw_mera_closed_120 > "$OUT/ab_consumer.txt" 2>&1
mv "$OUT/ab.jsonl" "$OUT/ab_consumer.jsonl"
for v in 1048576 67108864; do
  TENFERRO_EINSUM_CONSUMER_ORDER=$v timeout 120 "$B/tenferro" einsum "$B/instances/lm_batch_likelihood_sentence_3_12d.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/lm312_profile_$v.txt" 2>&1
done
for f in "$OUT"/lm312_profile_*.txt; do echo "== $f"; grep -E "^time|^order|busy|gemm:|permute:" "$f"; done
echo "== interleave"; cat "$OUT/ab_interleave.txt"
echo "== consumer order"; cat "$OUT/ab_consumer.txt"
