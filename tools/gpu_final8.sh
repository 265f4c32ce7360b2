#!/bin/sh
# Eighth session, final run: the full benchmark with the peers (tools/gpu_bench.sh, einsum's
# step interleaving on), then the einsum instances again with it off
# (TENFERRO_EINSUM_INTERLEAVE=0; median of 7, f64, stored opt_size paths), and a table of the two.
set -u
. tools/gpu_env.sh
sh tools/gpu_bench.sh
mkdir -p /tmp/il && : > /tmp/il/einsum_off.jsonl
for f in "$B"/instances/*.json; do
  case "$f" in *permutation_patterns*) continue ;; esac
  TENFERRO_EINSUM_INTERLEAVE=0 timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
    --repeat 7 --json >> /tmp/il/einsum_off.jsonl 2>/dev/null
done
cp /tmp/il/einsum_off.jsonl "$OUT/"
echo "== einsum median ms: interleaving off (after gpu_bench.sh) | on (gpu_bench.sh)"
tar xzf "$OUT/results.tgz" -O ./einsum.jsonl > /tmp/il/einsum_on.jsonl
python3 - /tmp/il/einsum_off.jsonl /tmp/il/einsum_on.jsonl <<'PY'
import json, sys
def load(p):
    r = {}
    for l in open(p):
        try: d = json.loads(l)
        except Exception: continue
        r[d["instance"]] = (d["median_seconds"] * 1e3, d.get("device_memory", {}).get("ratio", 0))
    return r
off, on = load(sys.argv[1]), load(sys.argv[2])
for k in sorted(on):
    a = off.get(k, (float("nan"), 0))
    print(f"{k:55s} {a[0]:8.3f} | {on[k][0]:8.3f}  mem ratio {a[1]:.2f} | {on[k][1]:.2f}")
PY
