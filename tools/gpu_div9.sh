#!/bin/sh
# Ninth session: the gemm shader without 64-bit division subroutines in its prologue (shifts
# for the tile's powers of two, 32-bit quotients where they fit) against the previous build
# (.gpubench/old_*), alternating: small products in a stream (the per-dispatch floor), then
# einsum instances with many small GEMMs.
set -u
. tools/gpu_env.sh
cases="f64_lm_tiny f64_lm_b12 f64_lm_k11 f64_chain f64_128 f64_512 f32_128"
for v in old new; do  # compile every pipeline once
  g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
  timeout 60 "$g" $cases --stream --reps 2 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in old new; do
    g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
    timeout 60 "$g" $cases --stream --reps 15 2>&1 | grep -E '^(f32|f64)_' | sed "s/^/$v /" >> "$OUT/gemm.txt"
  done
done
einsum_ab_builds "$OUT/einsum.jsonl" 7 4 lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d \
  lm_batch_likelihood_brackets_4_4d str_matrix_chain_multiplication_100 str_nw_mera_open_26
echo "== in-stream per call (ms): old / new, three rounds"
sort -k2,2 -s "$OUT/gemm.txt" | awk '{print $1, $2, $9, $11}'
python3 tools/einsum_ab_table.py "$OUT/einsum.jsonl" "old new"
