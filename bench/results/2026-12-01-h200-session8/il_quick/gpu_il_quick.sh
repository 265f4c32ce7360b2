#!/bin/sh
# Eighth session: einsum's step interleaving on / off on the instances compared with JAX and a
# few many-step ones (f64, stored opt_size paths, median of 7; --profile for busy / span).
set -u
. tools/gpu_env.sh
for i in lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26 str_nw_mera_closed_120 nary_matmul_chain_64 \
  bin_matmul_1024 gm_queen5_5_3.wcsp str_mps_varying_inner_product_200 tensornetwork_permutation_light_415 \
  lm_batch_likelihood_brackets_4_4d str_matrix_chain_multiplication_100; do
  f="$B/instances/$i.json"
  timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  for il in 1 0 1 0; do
    TENFERRO_EINSUM_INTERLEAVE=$il timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size \
      --repeat 7 --json --profile | sed "s/^{/{\"il\":$il,/" >> "$OUT/il.jsonl" 2>/dev/null
  done
done
python3 - "$OUT/il.jsonl" <<'PY'
import json, sys
rows = {}
for l in open(sys.argv[1]):
    try: d = json.loads(l)
    except Exception: continue
    p = d.get("profile_per_run", {})
    rows.setdefault(d["instance"], {}).setdefault(d["il"], []).append(
        (d["median_seconds"] * 1e3, p.get("busy_us", 0), p.get("span_us", 0), d["device_memory"]["ratio"]))
print("instance  on: ms busy span mem | off: ms busy span mem (two alternating calls each)")
for k, v in rows.items():
    f = lambda r: " ".join(f"{x[0]:.3f}/{x[1]:.0f}/{x[2]:.0f}/{x[3]:.2f}" for x in r)
    print(f"{k:45s} on {f(v.get(1, []))} | off {f(v.get(0, []))}")
PY
