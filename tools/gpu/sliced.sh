#!/bin/sh
# The sliced-einsum figures on the lent GPU (bench/RESULTS.md, "Sliced einsum"): per instance
# (data/instances and networks from bench/gen_network.py), the unsliced run and the run sliced to
# a quarter of the unsliced working set, f32 on the Vulkan device, in one call; then a generated
# network whose unsliced working set exceeds the device's memory, sliced to what the device has
# left, twice with different limits (two slicings that must agree). On a machine with several
# GPUs, the sliced runs also spread over every Vulkan device (--devices) and, where mpirun is
# carried, one rank per GPU.
#
#   here:  sh tools/gpu/stage.sh build/release new --no-tests
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/sliced.sh [LABEL]
#          with carry [".gl", ".gpu", "bench"]
#
# Every run's JSON in $OUT/sliced.jsonl; the table last (also $OUT/sliced.md). INSTANCES (a list
# of instance files) replaces the list and skips the network larger than the device.
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")/tenferro
J="$OUT/sliced.jsonl"
: > "$J"
"$B" devices > "$OUT/devices.txt" 2>&1
ngpu=$(grep -c '^vulkan [0-9]' "$OUT/devices.txt")
tag() {  # tag NAME: the einsum JSON on stdin, with "run": NAME, appended to $J (nothing when skipped)
  python3 -c 'import json,sys
t = sys.stdin.read().strip()
if t:
    j = json.loads(t.splitlines()[-1]); j["run"] = sys.argv[1]; print(json.dumps(j))' "$1" >> "$J"
}
run() {  # run NAME ARGS...: one einsum --json, tagged (REPEAT runs, default 5)
  name=$1
  shift
  tl 240 "$B" einsum "$@" --backend vulkan --dtype f32 --json --progress off --repeat "${REPEAT:-5}" |
    tag "$name"
}
unsliced_bytes() {  # the working set the slicing planner computes for an instance
  "$B" einsum "$1" --dtype f32 --json --no-run --memory-limit 1PiB |
    python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["slicing"]["unsliced_bytes"])'
}
python3 bench/gen_network.py grid 6 16 --out /tmp/grid_6_16.json
python3 bench/gen_network.py regular 40 3 16 --out /tmp/regular_40_3_16.json
python3 bench/gen_network.py mpo 64 1024 8 4 --out /tmp/mpo_64_1024_8_4.json
for f in ${INSTANCES:-data/instances/str_nw_mera_closed_120.json data/instances/str_nw_mera_open_26.json \
         data/instances/lm_batch_likelihood_sentence_4_4d.json data/instances/gm_queen5_5_3.wcsp.json \
         /tmp/grid_6_16.json /tmp/regular_40_3_16.json /tmp/mpo_64_1024_8_4.json}; do
  n=$(basename "$f" .json)
  u=$(unsliced_bytes "$f") || continue
  run "$n unsliced" "$f"
  run "$n sliced 1/4" "$f" --memory-limit $((u / 4))
  if [ "$ngpu" -gt 1 ]; then
    devs=$(seq -s, -f 'vulkan:%g' 0 $((ngpu - 1)))
    tl 240 "$B" einsum "$f" --devices "$devs" --dtype f32 --json --progress off --repeat 5 --memory-limit $((u / 4)) |
      tag "$n sliced 1/4 x$ngpu"
  fi
done
# Beyond the device: a grid whose largest intermediate alone is 231 GiB in f32 (2e14 flops),
# sliced to what the device has left, then to 32 GiB: the two slicings must agree (checksum).
python3 bench/gen_network.py grid 9 12 --out /tmp/grid_9_12.json
[ -n "${INSTANCES:-}" ] || REPEAT=1 run "grid_9_12 beyond memory" /tmp/grid_9_12.json --memory-limit 96GiB
[ -n "${INSTANCES:-}" ] || REPEAT=1 run "grid_9_12 beyond memory, 32 GiB" /tmp/grid_9_12.json --memory-limit 32GiB
python3 - "$J" <<'EOF' | tee "$OUT/sliced.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
by = {r["run"]: r for r in rows}
print("| run | ms | slices | flop overhead | held MiB | limit MiB | unsliced MiB | rate vs unsliced |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    s = r.get("slicing", {})
    base = by.get(r["run"].split(" ")[0] + " unsliced")
    rate = ""
    if s and base:
        rate = f"{base['median_s'] * s['overhead'] / r['median_s']:.2f}"
    g = lambda k: f"{s[k] / 2**20:.1f}" if k in s else ""
    print(f"| {r['run']} | {r['median_s'] * 1e3:.3f} | {s.get('slices', 1)} | {s.get('overhead', 1):.3f} | "
          f"{g('held_bytes')} | {g('memory_limit_bytes')} | {g('unsliced_bytes')} | {rate} |")
for r in rows:
    if "beyond" in r["run"]:
        print(r["run"], "checksum", r["checksum"])
EOF
