#!/bin/sh
# Diagnostic run on the lent GPU (sixth session): the permutation patterns on the tiled permute
# kernel and on the generic strided kernel (TENFERRO_VK_PERMUTE_TILES=0), alternately in one
# call, and the register counts of both kernels (statistics capture, untimed).
set -u
. tools/gpu_env.sh
P="$B/instances/permutation_patterns.json"
for i in 1 2; do
  for t in 1 0; do
    TENFERRO_VK_PERMUTE_TILES=$t timeout 100 "$B/tenferro" bench permute --patterns "$P" --backend vulkan --repeat 9 --json \
      | sed "s/^{/{\"tiles\":$t,\"pass\":$i,/" >> "$OUT/ab.jsonl" 2>> "$OUT/ab_err.txt"
  done
done
for t in 1 0; do
  TENFERRO_VK_PIPELINE_STATS=1 TENFERRO_VK_PERMUTE_TILES=$t timeout 60 "$B/tenferro" bench permute \
    --patterns "$B/permutation_patterns_small.json" --backend vulkan --repeat 1 > /dev/null 2>> "$OUT/stats.txt"
done
cd "$OUT" && tar czf permute_ab.tgz ab.jsonl ab_err.txt stats.txt
grep -h "pipeline \(permute\|copy\)" stats.txt | sed 's/Binary_Size=[0-9]* //; s/Stack_Size=0 //' | sort -u
python3 -c '
import json
rows = {}
for l in open("ab.jsonl"):
    try: d = json.loads(l)
    except Exception: continue
    rows.setdefault(d["pattern"], {}).setdefault(d["tiles"], []).append(d["median_ms"])
print("%-44s %s" % ("pattern", "tiled ms (2 passes) | strided ms (2 passes)"))
for k, v in rows.items(): print("%-44s %s | %s" % (k, v.get(1), v.get(0)))'
