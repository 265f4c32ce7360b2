"""Table of alternating einsum calls: python3 einsum_ab_table.py AB.jsonl "V1 V2 ...".

AB.jsonl: `tenferro einsum --json` lines with a "value" field added (tools/gpu_einsum_ab.sh,
tools/gpu_div9.sh). Prints per instance the median of the calls' medians (ms) per value, then
every call.
"""
import json
import statistics
import sys

values = sys.argv[2].split()
rows = {}
for line in open(sys.argv[1]):
    try:
        d = json.loads(line)
    except ValueError:
        continue
    rows.setdefault(d["instance"], {}).setdefault(d["value"], []).append(d["median_seconds"] * 1e3)
print("instance: median of the calls' medians (ms) per value " + " | ".join(values) + ", then every call")
for k, v in rows.items():
    m = " | ".join(f"{statistics.median(v[x]):.3f}" if v.get(x) else "-" for x in values)
    print(f"{k:45s} {m}   " + " / ".join(" ".join(f"{y:.3f}" for y in v.get(x, [])) for x in values))
