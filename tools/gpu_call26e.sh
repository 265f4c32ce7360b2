#!/bin/sh
# Twenty-sixth session, call 4 (carry [".gl", ".gpubench"]): a product whose stored order comes
# from its consumer takes as lhs the operand whose free block leads that order (the GEMM's
# stores run along M): TENFERRO_EINSUM_CONSUMER_SWAP "1 0", alternating calls on the instances
# it changes.
set -u
. tools/gpu_env.sh
sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_CONSUMER_SWAP "1 0" 3 lm_batch_likelihood_sentence_3_12d \
  str_nw_mera_open_26 str_nw_mera_closed_120 > "$OUT/ab_swap.txt" 2>&1
for v in 1 0; do
  TENFERRO_EINSUM_CONSUMER_SWAP=$v timeout 120 "$B/tenferro" einsum "$B/instances/lm_batch_likelihood_sentence_3_12d.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/lm312_profile_swap$v.txt" 2>&1
done
grep -A6 "^dispatches" "$OUT"/lm312_profile_swap*.txt
cat "$OUT/ab_swap.txt"
