#!/bin/sh
# Eleventh session: the chained C (GEMM writing outputs whose groups are several stride chains,
# GemmCall) against the build before (old: every such output through a temp + copy), then the
# full benchmark run with the peers (tools/gpu_bench.sh; its table prints last).
# 1. gemm A/B of the shader change on large and small products (tools/gpu_gemm_ab.sh's loop).
# 2. einsum instances with chained outputs, alternating old / new CLI, --profile of each.
set -u
. tools/gpu_env.sh
sh tools/gpu_gemm_ab.sh > "$OUT/gemm_ab.txt" 2>&1
einsum_ab_builds "$OUT/ab.jsonl" 7 3 str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "old new" > "$OUT/ab_table.txt"
for v in old new; do
  timeout 60 "$(ab_cli $v)" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan --dtype f64 \
    --path opt_size --repeat 3 --profile --check > "$OUT/profile_mera_open_$v.txt" 2>&1
done
grep -E "check|gemm:|permute:|busy" "$OUT"/profile_mera_open_*.txt > "$OUT/profile_summary.txt"
cp "$OUT/gemm_ab.txt" "$OUT/ab_table.txt" "$OUT/profile_summary.txt" /tmp/
rm -f "$B"/old_*
sh tools/gpu_bench.sh  # archives everything in $OUT into results.tgz
cat /tmp/gemm_ab.txt /tmp/ab_table.txt /tmp/profile_summary.txt
