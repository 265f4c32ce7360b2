#!/bin/sh
# Twenty-sixth session, call 2 (carry [".gl", ".gpubench"]): the generic strided elementwise path
# with up to 16 or 64 elements per invocation (at least 1024 workgroups kept) against the earlier
# rule (4 from 2^22 elements, else 1): TENFERRO_VK_STRIDED_ELEMS "0 16 64", alternating calls on
# the instances whose time is such elementwise products, then PyTorch on the same instances in
# the same run (../shared/tools/peer_bench.py einsum, through tools/peer_warm.py).
set -u
. tools/gpu_env.sh
sh tools/gpu_einsum_ab.sh TENFERRO_VK_STRIDED_ELEMS "0 16 64" 3 bin_outer_product_4096 \
  bin_batched_outer_product_noncompact_j16_k16_o64_t64 gm_queen5_5_3.wcsp tensornetwork_permutation_light_415 \
  > "$OUT/ab_strided.txt" 2>&1
mv "$OUT/ab.jsonl" "$OUT/ab_strided.jsonl"
mkdir -p /tmp/inst
for i in bin_outer_product_4096 bin_batched_outer_product_noncompact_j16_k16_o64_t64 gm_queen5_5_3.wcsp \
  tensornetwork_permutation_light_415; do cp "$B/instances/$i.json" /tmp/inst/; done
timeout 150 python3 "$B/peer_warm.py" "$B/peer_bench.py" einsum --no-jax --instances /tmp/inst > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
for v in 0 16; do
  TENFERRO_VK_STRIDED_ELEMS=$v timeout 60 "$B/tenferro" einsum "$B/instances/gm_queen5_5_3.wcsp.json" --backend vulkan \
    --dtype f64 --path opt_size --repeat 5 --profile --json > "$OUT/gm_profile_$v.json" 2>&1
done
echo "== strided"; cat "$OUT/ab_strided.txt"
echo "== peers"; grep opt_size "$OUT/peers.jsonl"
