#!/bin/sh
# Twenty-first session, third call: f64 wide products with M <= 16 on 16 x 64 tiles (the new
# rule; with and without the paired warp map) and the transposed (tall) shapes, against other
# tiles; then the first call's build (old_tenferro: the Ozaki change alone) against this one on
# the instances with such products. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
timeout 200 "$B/tenferro_bench_vk_gemm" sweep f64:11x415800x24 f64:16x7600x64 f64:9x13860x85 f64:16x4096x256 \
  f64:415800x11x24 f64:7600x16x64 f64:13860x9x85 --reps 20 --budget 30 --total 190 \
  --configs "16,64,8,2,4,-,1 16,64,8,2,4,wy,1 64,16,8,4,2,-,1 128,16,8,8,2,-,1 16,128,8,2,8,-,1 64,64,16,4,4,wy,0 small" \
  > "$OUT/sweep.jsonl" 2>&1
einsum_ab_builds "$OUT/ab.jsonl" 7 3 str_nw_mera_open_26 lm_batch_likelihood_sentence_4_4d str_nw_mera_closed_120
python3 - "$OUT/sweep.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    try: j = json.loads(l)
    except Exception: continue
    if "config" in j and "median_ms" in j: print(j.get("case"), j["config"], j["median_ms"], j.get("ok"))
    if "best" in j: print("best", j.get("case"), j["best"], "default", j.get("default"))
PY
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "old new"
