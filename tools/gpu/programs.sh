#!/bin/sh
# The einsum-program figures on the lent GPU (bench/RESULTS.md, "einsum programs"): per instance
# and dtype, direct runs and runs of a recorded EinsumProgram (`tenferro einsum --program`) one
# after the other, each with its host part per step, then the peers in the same dtype (JAX jit
# and PyTorch + opt_einsum, stored opt_size path: tools/gpu/peer_einsum_jax.py).
#
#   here:  sh tools/gpu/stage.sh build/release new --no-tests
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/programs.sh [LABEL]
#          with carry [".gl", ".gpu"]
#
# INSTANCES and DTYPES replace the lists. Every run's JSON in $OUT/programs.jsonl, the peers' in
# $OUT/peers.jsonl; the table last (also $OUT/programs.md).
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")/tenferro
J="$OUT/programs.jsonl"
: > "$J"
: > "$OUT/peers.jsonl"
instances=${INSTANCES:-"str_nw_mera_closed_120 str_nw_mera_open_26 bin_matmul_1024 str_mps_varying_inner_product_200
lm_batch_likelihood_sentence_4_4d str_matrix_chain_multiplication_100 gm_queen5_5_3.wcsp"}
dtypes=${DTYPES:-"f32 c32 f64 c64"}
"$B" devices > "$OUT/devices.txt" 2>&1
for d in $dtypes; do
  for n in $instances; do
    f=data/instances/$n.json
    # One untimed run first: the driver runs a pipeline it has just compiled slower.
    tl 60 "$B" einsum "$f" --backend vulkan --dtype "$d" --path opt_size --repeat 1 > /dev/null 2>&1
    for mode in direct program; do
      flag=""
      [ "$mode" = program ] && flag=--program
      tl 60 "$B" einsum "$f" --backend vulkan --dtype "$d" --path opt_size --repeat 9 --json --progress off $flag |
        python3 -c 'import json,sys
t = sys.stdin.read().strip()
if t:
    j = json.loads(t.splitlines()[-1]); j["mode"] = sys.argv[1]; print(json.dumps(j))' "$mode" >> "$J"
    done
  done
done
for d in $dtypes; do
  tl 150 python3 tools/gpu/peer_einsum_jax.py --instances data/instances --dtype "$d" --who jax,torch $instances \
    >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
done
python3 - "$J" "$OUT/peers.jsonl" <<'EOF' | tee "$OUT/programs.md"
import json, sys
runs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
peers = {}
for l in open(sys.argv[2]):
    if l.strip():
        p = json.loads(l)
        if "ms" in p:
            peers[(p["case"].split(":")[0], p["dtype"], p["who"])] = p["ms"]
mine = {(r["instance"], r["dtype"], r["mode"]): r for r in runs}
print("| instance | dtype | direct ms | program ms | host us/step direct | program | PyTorch ms | JAX ms |")
print("|---|---|---|---|---|---|---|---|")
for (inst, d, mode), r in sorted(mine.items()):
    if mode != "direct":
        continue
    p = mine.get((inst, d, "program"), {})
    def ms(x):
        return "%.3f" % (x * 1e3) if x is not None else "-"
    def us(x):
        return "%.2f" % (x * 1e6) if x is not None else "-"
    peer = lambda who: peers.get((inst, d, who))
    print("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
        inst, d, ms(r.get("median_s")), ms(p.get("median_s")), us(r.get("host_per_step_s")),
        us(p.get("host_per_step_s")) + ("" if p.get("program", {}).get("recorded", True) else " (not recorded)"),
        peer("torch") if peer("torch") is not None else "-", peer("jax") if peer("jax") is not None else "-"))
EOF
