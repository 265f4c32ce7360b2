#!/bin/sh
# Thirteenth session, after the figure-of-record run: 1) the gemm shader A/B of the chained C's
# store rewrite (tools/gpu_gemm_ab.sh: .gpubench/old_bench_vk_gemm built at a34ed5f against
# this build; the plain pipelines' code changed shape too); 2) einsum old (a34ed5f: chained C
# off) against new (chained C on) alternating on str_nw_mera_open_26 and on the two instances
# that were slower in the final run without any chained step (tensornetwork_permutation_light_415,
# lm_batch_likelihood_sentence_4_4d: same GPU busy time, more idle). Stage: sh
# tools/gpu_bench_stage.sh, then copy the old build's bench_vk_gemm and tenferro as
# .gpubench/old_bench_vk_gemm and .gpubench/old_tenferro.
set -u
sh tools/gpu_gemm_ab.sh
. tools/gpu_env.sh
einsum_ab_builds "$OUT/einsum_ab.jsonl" 7 3 tensornetwork_permutation_light_415 lm_batch_likelihood_sentence_4_4d \
  str_nw_mera_open_26
python3 tools/einsum_ab_table.py "$OUT/einsum_ab.jsonl" "old new"
