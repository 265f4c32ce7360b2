#!/bin/sh
# Eighth session: einsum's step interleaving, on / off alternating six times per instance
# (f64, stored opt_size paths, median of 7 per call, no profiling), for the instances whose
# figures disagreed between the calls of tools/gpu_il_quick.sh and tools/gpu_final8.sh.
set -u
. tools/gpu_env.sh
for i in tensornetwork_permutation_light_415 tensornetwork_permutation_focus_step409_316 nary_matmul_chain_64 \
  lm_batch_likelihood_sentence_3_12d str_matrix_chain_multiplication_100 lm_batch_likelihood_brackets_4_4d; do
  f="$B/instances/$i.json"
  timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  for il in 1 0 1 0 1 0 1 0 1 0 1 0; do
    TENFERRO_EINSUM_INTERLEAVE=$il timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
      --repeat 7 --json | sed "s/^{/{\"il\":$il,/" >> "$OUT/il_ab.jsonl" 2>/dev/null
  done
done
python3 - "$OUT/il_ab.jsonl" <<'PY'
import json, sys, statistics
rows = {}
for l in open(sys.argv[1]):
    try: d = json.loads(l)
    except Exception: continue
    rows.setdefault(d["instance"], {}).setdefault(d["il"], []).append(d["median_seconds"] * 1e3)
print("instance: median of the calls' medians, on | off (ms), then every call")
for k, v in rows.items():
    on, off = v.get(1, []), v.get(0, [])
    print(f"{k:45s} {statistics.median(on):.3f} | {statistics.median(off):.3f}   on {' '.join(f'{x:.3f}' for x in on)} | off {' '.join(f'{x:.3f}' for x in off)}")
PY
