#!/bin/sh
# Ninth session: the paired warp map on the chosen f64 tiles (TENFERRO_VK_GEMM_PAIR 0 / 1),
# alternating: einsum instances (tools/gpu_einsum_ab.sh, 4 rounds), then the f64 single-call
# sizes of issue 5 (three alternating rounds of each value).
set -u
. tools/gpu_env.sh
for r in 1 2 3; do
  for v in 0 1; do
    TENFERRO_VK_GEMM_PAIR=$v timeout 60 "$B/tenferro_bench_vk_gemm" f64_128 f64_256 f64_512 f64_1024 f64_2048 f64_batched \
      --reps 15 2>&1 | grep '^f64' | sed "s/^/pair=$v /" >> "$OUT/gemm_ab.txt"
  done
done
OUT=$OUT sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_PAIR "0 1" 4 str_nw_mera_open_26 str_nw_mera_closed_120 \
  lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d lm_batch_likelihood_brackets_4_4d \
  str_matrix_chain_multiplication_100 gm_queen5_5_3.wcsp str_mps_varying_inner_product_200 \
  tensornetwork_permutation_light_415 bin_matmul_1024
echo "== gemm single calls (pair=0 / pair=1, three rounds each)"
cat "$OUT/gemm_ab.txt"
