#!/bin/sh
# Eleventh session's pending GPU work (written after its only device call; run it first in the
# next session with a device): the chained C (the GEMM writing outputs whose groups are several
# stride chains, GemmCall) and the split_free experiment, then the full benchmark run with the
# peers in the column-major reading of the instances (tools/gpu_bench.sh; its table prints last).
# Stage: sh tools/gpu_bench_stage.sh, plus .gpubench/old_bench_vk_gemm built at 27ae9de (the
# commit before the chained C; git worktree, target tenferro_bench_vk_gemm), stripped.
# 1. gemm shader A/B, large and small products (tools/gpu_gemm_ab.sh: old_ against new).
# 2. TENFERRO_VK_GEMM_CHAINS 1 / 0 (chained C / temp + copy), alternating, on the instances
#    with chained outputs; TENFERRO_EINSUM_SPLIT_UNIT 0 / 1 on those split_free changes.
# 3. --profile of str_nw_mera_open_26 both ways.
set -u
. tools/gpu_env.sh
sh tools/gpu_gemm_ab.sh > "$OUT/gemm_ab.txt" 2>&1
rm -f "$B"/old_*
mkdir -p "$OUT/chains" "$OUT/split"
OUT=$OUT/chains sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_CHAINS "1 0" 3 str_nw_mera_open_26 \
  str_nw_mera_closed_120 gm_queen5_5_3.wcsp > "$OUT/chains/table.txt" 2>&1
OUT=$OUT/split sh tools/gpu_einsum_ab.sh TENFERRO_EINSUM_SPLIT_UNIT "0 1" 3 str_mps_varying_inner_product_200 \
  lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d str_nw_mera_closed_120 \
  str_nw_mera_open_26 > "$OUT/split/table.txt" 2>&1
for v in 1 0; do
  TENFERRO_VK_GEMM_CHAINS=$v timeout 60 "$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan \
    --dtype f64 --path opt_size --repeat 3 --profile --check > "$OUT/profile_mera_open_chains$v.txt" 2>&1
done
grep -E "check|gemm:|permute:|busy" "$OUT"/profile_mera_open_*.txt > "$OUT/profile_summary.txt"
cp "$OUT/gemm_ab.txt" /tmp/gemm_ab.txt
cp "$OUT/chains/table.txt" /tmp/chains_table.txt
cp "$OUT/split/table.txt" /tmp/split_table.txt
cp "$OUT/profile_summary.txt" /tmp/profile_summary.txt
sh tools/gpu_bench.sh  # archives everything in $OUT into results.tgz
cat /tmp/gemm_ab.txt /tmp/chains_table.txt /tmp/split_table.txt /tmp/profile_summary.txt
