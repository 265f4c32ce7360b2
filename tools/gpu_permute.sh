#!/bin/sh
# Permutation run on the lent GPU (sixth session): every pattern of
# data/instances/permutation_patterns.json through `tenferro bench permute --check` and
# PyTorch's permute().contiguous() (../shared/tools/peer_bench.py permute) in the same call, then
# the einsum instances whose permutes the direct-mode change touches, with a GPU profile.
set -u
. tools/gpu_env.sh
timeout 120 "$B/tenferro" bench permute --patterns "$B/instances/permutation_patterns.json" --backend vulkan \
  --check --repeat 15 --json > "$OUT/permute.jsonl" 2> "$OUT/permute_err.txt"
timeout 150 python3 "$B/peer_bench.py" permute --instances "$B/instances" > "$OUT/peer_permute.jsonl" 2> "$OUT/peer_err.txt"
for f in str_nw_mera_open_26 str_nw_mera_closed_120 tensornetwork_permutation_light_415 \
  tensornetwork_permutation_focus_step409_316 gm_queen5_5_3.wcsp lm_batch_likelihood_sentence_4_4d; do
  timeout 30 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 1 > /dev/null 2>&1
  timeout 60 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 9 --json \
    --profile >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
cd "$OUT" && tar czf permute.tgz *.jsonl *.txt && rm -f *.jsonl *.txt
tar xzf permute.tgz -O permute.jsonl peer_permute.jsonl einsum.jsonl | python3 -c '
import sys, json
ours, peer = {}, {}
for l in sys.stdin:
    try: d = json.loads(l)
    except Exception: continue
    if "pattern" in d: ours[d["pattern"]] = d
    elif d.get("group") == "permute": peer.setdefault(d["case"], {})[d["who"]] = d
    elif "instance" in d:
        fam = d.get("profile_per_run", {}).get("families", {})
        print("einsum %-44s %.3f ms  permute %s us" % (d["instance"], d["median_seconds"] * 1e3, round(fam.get("permute", {}).get("gpu_us", 0))))
print("%-44s %9s %9s %7s %9s %9s %s" % ("pattern", "ours ms", "GB/s", "%copy", "torch ms", "jax ms", "ok"))
for k, d in ours.items():
    p = peer.get(k, {})
    f = lambda w: "%9.4f" % p[w]["ms"] if w in p else "        -"
    print("%-44s %9.4f %9.1f %6.1f%% %s %s %s" % (k, d["median_ms"], d["gbps"], d["pct_of_copy"], f("torch"), f("jax"), d.get("ok")))'
