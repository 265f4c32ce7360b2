#!/bin/sh
# Twelfth session, second device call: the chained C hung (no result within 60 s) on
# str_nw_mera_open_26 and gm_queen5_5_3.wcsp and made str_nw_mera_closed_120 2.8x slower in the
# first call (tools/gpu_chains11.sh). Diagnostics of that, the split_free experiment, then the
# benchmark run with the peers, chained C off (TENFERRO_VK_GEMM_CHAINS=0).
set -u
. tools/gpu_env.sh
mkdir -p "$OUT/diag" "$OUT/split"
I=$B/instances
TENFERRO_VK_GEMM_CHAINS=1 timeout 25 "$B/tenferro" einsum "$I/str_nw_mera_open_26.json" --backend vulkan \
  --dtype f64 --path opt_size --repeat 1 --profile --steps > "$OUT/diag/mera_open_chains1.txt" 2>&1
echo "rc=$?" >> "$OUT/diag/mera_open_chains1.txt"
TENFERRO_VK_GEMM_CHAINS=1 timeout 20 "$B/tenferro" einsum "$I/gm_queen5_5_3.wcsp.json" --backend vulkan \
  --dtype f64 --path opt_size --repeat 1 > "$OUT/diag/queen_chains1.txt" 2>&1
echo "rc=$?" >> "$OUT/diag/queen_chains1.txt"
for v in 1 0; do
  TENFERRO_VK_GEMM_CHAINS=$v timeout 20 "$B/tenferro" einsum "$I/str_nw_mera_closed_120.json" --backend vulkan \
    --dtype f64 --path opt_size --repeat 3 --profile --steps --check > "$OUT/diag/mera_closed_chains$v.txt" 2>&1
done
export TENFERRO_VK_GEMM_CHAINS=0
OUT=$OUT/split sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_SPLIT_UNIT "0 1" 2 str_mps_varying_inner_product_200 \
  lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d > "$OUT/split/table.txt" 2>&1
cp "$OUT/split/table.txt" /tmp/split_table.txt
tail -5 "$OUT"/diag/*.txt > /tmp/diag_tail.txt
sh tools/gpu_bench.sh
cat /tmp/split_table.txt /tmp/diag_tail.txt
