#!/bin/sh
# The WebGPU provider's figures on the lent GPU (bench/RESULTS.md, "WebGPU provider"): the same
# work on wgpu-native's Vulkan backend (--backend webgpu) and on our Vulkan provider (--backend
# vulkan), one after the other in one call: the f32 product 4096^3 (`tenferro bench gemm`), add
# and copy of 2^28 f32 (`bench elementwise`), the per-op overhead (`bench overhead`) and five
# einsum instances in f32 (stored opt_size path); then PyTorch on the same work
# (.gpu/peer_bench.py gemm membound overhead, tools/gpu/peer_einsum_jax.py --who torch).
#
#   here:  sh tools/gpu/stage.sh build/release new --no-tests   (stages libwgpu_native.so too)
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/webgpu.sh [LABEL]
#          with carry [".gl", ".gpu"]
#
# INSTANCES replaces the einsum list; SIZE (default 4096) and ELEMENTS (2^28) the sizes. Every row's JSON in $OUT/webgpu.jsonl, the peers' in
# $OUT/peers.jsonl; the table last (also $OUT/webgpu.md).
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")/tenferro
export TENFERRO_WGPU_LIB=/tmp/tf/lib/libwgpu_native.so
J="$OUT/webgpu.jsonl"
: > "$J"
: > "$OUT/peers.jsonl"
instances=${INSTANCES:-"bin_matmul_1024 str_matrix_chain_multiplication_100 lm_batch_likelihood_sentence_4_4d
str_mps_varying_inner_product_200 str_nw_mera_open_26"}
"$B" devices > "$OUT/devices.txt" 2>&1
for be in webgpu vulkan; do
  tl 120 "$B" bench gemm --backend $be --dtype f32 --size ${SIZE:-4096} --repeat 10 --json >> "$J" 2>> "$OUT/err.txt"
  tl 120 "$B" bench elementwise --backend $be --dtype f32 --elements ${ELEMENTS:-268435456} --repeat 15 --json >> "$J" 2>> "$OUT/err.txt"
  tl 60 "$B" bench overhead --backend $be --dtype f32 --repeat 7 --json >> "$J" 2>> "$OUT/err.txt"
  for n in $instances; do
    f=data/instances/$n.json
    # One untimed run first: the driver runs a pipeline it has just compiled slower.
    tl 60 "$B" einsum "$f" --backend $be --dtype f32 --path opt_size --repeat 1 > /dev/null 2>&1
    tl 90 "$B" einsum "$f" --backend $be --dtype f32 --path opt_size --repeat 9 --json --progress off |
      python3 -c 'import json,sys
t = sys.stdin.read().strip()
if t:
    j = json.loads(t.splitlines()[-1]); j["group"] = "einsum"; j["backend"] = sys.argv[1]; print(json.dumps(j))' $be >> "$J"
  done
done
tl 150 python3 .gpu/peer_bench.py --no-jax gemm membound overhead >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
tl 120 python3 tools/gpu/peer_einsum_jax.py --instances data/instances --dtype f32 --who torch $instances \
  >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
python3 - "$J" "$OUT/peers.jsonl" <<'EOF' | tee "$OUT/webgpu.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
peers = {}
for l in open(sys.argv[2]):
    if l.strip().startswith("{"):
        p = json.loads(l)
        if "ms" in p:
            peers[p["case"].split(":")[0]] = p["ms"]
def key(r):
    if r.get("group") == "einsum":
        return r["instance"]
    return r.get("op")
ours = {}
for r in rows:
    if r.get("group") in ("elementwise",) and r.get("op") not in ("copy", "add"):
        continue
    ours.setdefault(key(r), {})[r["backend"]] = r["median_s"] * 1e3
peer_of = {"gemm 4096^3": "float32_4096",  # the peers' sizes: the defaults "copy": "copy_f32_2^28", "add": "add_f32_2^28",
           "overhead (2000 chained adds of 1000)": "us_per_small_op(2000_adds_1000_elems)"}
print("| case | WebGPU ms | Vulkan ms | WebGPU / Vulkan figure | PyTorch ms |")
print("|---|---|---|---|---|")
for case, t in ours.items():
    w, v = t.get("webgpu"), t.get("vulkan")
    p = peers.get(peer_of.get(case, case))
    if case.startswith("overhead") and p is not None:
        p = p / 1000  # the peer script reports us per op in its ms field
    f = lambda x: "%.4f" % x if x is not None else "-"
    print("| %s | %s | %s | %s | %s |" % (case, f(w), f(v), "%.0f %%" % (100 * v / w) if w and v else "-", f(p)))
EOF
