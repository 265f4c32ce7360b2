#!/bin/sh
# Short permutation run on the lent GPU: every pattern of data/instances/permutation_patterns.json
# through `tenferro bench permute --check` and PyTorch / JAX (peer_bench.py permute), same call.
set -u
. tools/gpu_env.sh
timeout 90 "$B/tenferro" bench permute --patterns "$B/instances/permutation_patterns.json" --backend vulkan \
  --check --repeat 15 --json > "$OUT/permute.jsonl" 2> "$OUT/permute_err.txt"
timeout 100 python3 "$B/peer_bench.py" permute --instances "$B/instances" > "$OUT/peer_permute.jsonl" 2> "$OUT/peer_err.txt"
cat "$OUT/permute.jsonl" "$OUT/peer_permute.jsonl" | python3 -c '
import sys, json
ours, peer = {}, {}
for l in sys.stdin:
    try: d = json.loads(l)
    except Exception: continue
    if "pattern" in d: ours[d["pattern"]] = d
    elif d.get("group") == "permute": peer.setdefault(d["case"], {})[d["who"]] = d
for k, d in ours.items():
    p = peer.get(k, {})
    f = lambda w: "%9.4f" % p[w]["ms"] if w in p else "        -"
    print("%-44s %9.4f %9.1f %6.1f%% %s %s %s" % (k, d["median_ms"], d["gbps"], d["pct_of_copy"], f("torch"), f("jax"), d.get("ok")))'
