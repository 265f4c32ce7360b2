#!/bin/sh
# Alternating A/B runs of einsum instances under values of one environment variable:
#   sh tools/gpu_einsum_ab.sh VAR "V1 V2 ..." ROUNDS INSTANCE...
# per instance: one warm-up call, then ROUNDS rounds of one call per value (f64, stored opt_size
# path, median of 7 per call, no profiling); JSON lines in $OUT/ab.jsonl ("value" field added)
# and a table of the medians of the calls' medians per value. Eighth session: VAR =
# TENFERRO_EINSUM_INTERLEAVE "1 0" (6 rounds), TENFERRO_VK_EARLY_COMMANDS "32 8 4" (4 rounds).
set -u
. tools/gpu_env.sh
var=$1 values=$2 rounds=$3
shift 3
for i in "$@"; do
  f="$B/instances/$i.json"
  timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  r=0
  while [ $r -lt "$rounds" ]; do
    for v in $values; do
      env "$var=$v" timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
        --repeat 7 --json | sed "s/^{/{\"value\":\"$v\",/" >> "$OUT/ab.jsonl" 2>/dev/null
    done
    r=$((r + 1))
  done
done
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "$values"
