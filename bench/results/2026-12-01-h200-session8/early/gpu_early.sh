#!/bin/sh
# Eighth session: the recorder's first early submission (TENFERRO_VK_EARLY_COMMANDS) at 32
# (default), 8 and 4 commands, alternating four rounds per instance (f64, stored opt_size paths,
# median of 7 per call, no profiling).
set -u
. tools/gpu_env.sh
for i in lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_brackets_4_4d str_matrix_chain_multiplication_100 \
  nary_matmul_chain_64 str_nw_mera_open_26 tensornetwork_permutation_light_415; do
  f="$B/instances/$i.json"
  timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  for r in 1 2 3 4; do
    for e in 32 8 4; do
      TENFERRO_VK_EARLY_COMMANDS=$e timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
        --repeat 7 --json | sed "s/^{/{\"early\":$e,/" >> "$OUT/early.jsonl" 2>/dev/null
    done
  done
done
python3 - "$OUT/early.jsonl" <<'PY'
import json, sys, statistics
rows = {}
for l in open(sys.argv[1]):
    try: d = json.loads(l)
    except Exception: continue
    rows.setdefault(d["instance"], {}).setdefault(d["early"], []).append(d["median_seconds"] * 1e3)
print("instance: median of the calls' medians (ms) at early = 32 | 8 | 4, then every call")
for k, v in rows.items():
    m = " | ".join(f"{statistics.median(v.get(e, [0])):.3f}" for e in (32, 8, 4))
    print(f"{k:45s} {m}   " + " / ".join(" ".join(f"{x:.3f}" for x in v.get(e, [])) for e in (32, 8, 4)))
PY
