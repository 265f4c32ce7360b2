#!/bin/sh
# Tenth session: kF64Huge from K >= 256 (new) against the build before (old, meant to be
# a556bba; the staged old CLI was in fact built at 9f7f347, before both wave-model changes),
# alternating, on str_nw_mera_closed_120 (whose 2160 x 3672 x 360 step it changes), then the
# full benchmark run with the peers (tools/gpu_bench.sh; its table prints last).
set -u
. tools/gpu_env.sh
einsum_ab_builds "$OUT/ab.jsonl" 7 4 str_nw_mera_closed_120
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "old new" > "$OUT/ab_table.txt"
rm -f "$B"/old_*
sh tools/gpu_bench.sh
cat "$OUT/ab_table.txt" 2>/dev/null || (cd "$OUT" && tar xzf results.tgz ./ab_table.txt -O)
