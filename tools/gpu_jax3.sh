#!/bin/sh
# Eighth session, last call: three einsum instances that issue 6 compares with JAX, ours (f64,
# stored opt_size paths, median of 7, --check) and JAX in the same call, three alternating
# rounds (ours, JAX, ours, JAX, ...) for lm_batch_likelihood_sentence_3_12d.
set -u
. tools/gpu_env.sh
for r in 1 2 3; do
  for i in lm_batch_likelihood_sentence_3_12d bin_matmul_1024 nary_matmul_chain_64; do
    timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 7 \
      --json --check | sed "s/^{/{\"round\":$r,/" >> "$OUT/ours.jsonl" 2>/dev/null
  done
  timeout 90 python3 "$B/peer_einsum_jax.py" --instances "$B/instances" lm_batch_likelihood_sentence_3_12d \
    bin_matmul_1024 nary_matmul_chain_64 2>/dev/null | sed "s/^{/{\"round\":$r,/" >> "$OUT/jax.jsonl"
done
python3 - "$OUT/ours.jsonl" "$OUT/jax.jsonl" <<'PY'
import json, sys
ours = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
jax = [json.loads(l) for l in open(sys.argv[2]) if l.startswith("{")]
for name in ("lm_batch_likelihood_sentence_3_12d", "bin_matmul_1024", "nary_matmul_chain_64"):
    o = [d["median_seconds"] * 1e3 for d in ours if d["instance"] == name]
    c = [d["check"]["ok"] for d in ours if d["instance"] == name]
    j = [d["ms"] for d in jax if d["case"].startswith(name)]
    print(f"{name:40s} ours {' '.join(f'{x:.3f}' for x in o)} (check {all(c)}) | jax {' '.join(f'{x:.3f}' for x in j)}")
PY
