#!/bin/sh
# Twenty-first session, second call: where str_nw_mera_open_26's and str_nw_mera_closed_120's
# chained outputs (GEMMs writing a permuted C) cost more than a compact C and a permute: per-
# dispatch profiles in step order (TENFERRO_EINSUM_INTERLEAVE=0) with TENFERRO_VK_GEMM_CHAINS 1
# and 0, then alternating rounds of both. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
for i in str_nw_mera_open_26 str_nw_mera_closed_120; do
  for c in 1 0; do
    timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
    TENFERRO_EINSUM_INTERLEAVE=0 TENFERRO_VK_GEMM_CHAINS=$c timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" \
      --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/${i}_chains$c.txt" 2>&1
  done
done
OUT=$OUT/ab sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_CHAINS "1 0" 3 str_nw_mera_open_26 str_nw_mera_closed_120 \
  > "$OUT/ab_table.txt" 2>&1
for f in "$OUT"/*_chains*.txt; do echo "== $f"; grep -E "^time|busy|gemm:|permute:" "$f"; done
echo "== ab"; cat "$OUT/ab_table.txt"
# The mera_open products with short K, compact operands: the default against other tiles.
timeout 150 "$B/tenferro_bench_vk_gemm" sweep f64:11x415800x24 f64:252x39600x56 f64:196830x45x11 f64:9x30492x11x7 \
  --reps 20 --budget 30 --total 140 --configs "16,64,8,2,4,-,1 16,128,8,2,8,-,1 32,64,8,4,4,-,1 32,128,8,4,8,-,1 \
  16,256,8,2,8,-,1 64,64,8,4,4,wfuy,1 64,128,16,8,8,fs,1 32,32,4,4,4,-,1 64,64,4,4,4,-,1 128,32,4,4,4,-,1 \
  64,32,8,4,4,fu,1 128,64,8,8,4,-,1 small" > "$OUT/sweep.jsonl" 2>&1
grep -E '"best"|default' "$OUT/sweep.jsonl" | cut -c1-200
python3 - "$OUT/sweep.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    try: j = json.loads(l)
    except Exception: continue
    if "config" in j and "median_ms" in j: print(j.get("case"), j["config"], j["median_ms"], j.get("ok"))
PY
