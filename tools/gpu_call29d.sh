#!/bin/sh
# Twenty-ninth session, call 4 (carry [".gl", ".gpubench"]; $B/old_* = the build at 72c5515): the
# Ozaki-II combine pass storing C through shared memory (consecutive invocations, consecutive
# outputs) against the old per-invocation stores of four consecutive outputs, alternating builds;
# einsum's str_nw_mera_open_26 (its 990 x 2187 x 4620 step takes the scheme) likewise.
set -u
. tools/gpu_env.sh
ab_gemm "f64_4096 c64_2048 c32_4096 f64:4095x4096x4096 f64:8192x8192x8192" 4 alt
einsum_ab_builds "$OUT/einsum_ab.jsonl" 7 3 str_nw_mera_open_26
ab_gemm_table
python3 tools/einsum_ab_table.py "$OUT/einsum_ab.jsonl" "old new"
