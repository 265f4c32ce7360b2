#!/bin/sh
# Nineteenth session, fourth call: the whole vk_gemm_gpu_test (this build); einsum on the
# GEMM-heavy instances, b33b2d7 ("old", staged as old_tenferro) against this build ("new": the
# 64 x 64 f64 tile with the interior loop where the wave model or the short-K rule takes it),
# one untimed call each, then three alternating rounds (median of 7 each), and each instance
# once with --check (new); then the Ozaki time model's choices at f64 4096^3 (16 moduli) and
# 2048^3 (11, 12): through the model (N) and forced (N:0) against the FMA kernels (0), two
# orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*'
inst="str_nw_mera_closed_120 str_nw_mera_open_26 lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_brackets_4_4d lm_batch_likelihood_sentence_4_4d gm_queen5_5_3.wcsp str_mps_varying_inner_product_200 str_matrix_chain_multiplication_100 tensornetwork_permutation_light_415 tensornetwork_permutation_focus_step409_316"
einsum_ab_builds "$OUT/einsum_ab.jsonl" 7 3 $inst
for i in $inst; do
  echo "$i $(timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 1 --check 2>&1 | grep -i -E 'check|error' | head -2 | tr '\n' ' ')" >> "$OUT/checks.txt"
done
ozaki_rounds "f64_4096 f64:2048x2048x2048" "0 16 16:0 11 11:0 12:0"
echo "== checks"; cut -c1-250 "$OUT/checks.txt"
echo "== einsum"; python3 tools/einsum_ab_table.py "$OUT/einsum_ab.jsonl" "old new" | head -14
echo "== gemm"; gemm_summary
