#!/bin/sh
# Eighth session: what one dependent read of the gemm kernel's extents block costs. The scratch
# build `tenferro_bench_vk_gemm_diag` (bench/results/2026-12-01-h200-session8/reread/) reads the
# block a second time, dependent on the first, when TFG_DIAG=4; in-stream times with and
# without, alternating three times. If the second read costs X us, inline extents (push
# constants) would save about X per dispatch.
set -u
. tools/gpu_env.sh
D="$B/tenferro_bench_vk_gemm_diag"
for r in 1 2 3; do
  for v in 0 4; do
    TFG_DIAG=$v timeout 60 "$D" sweep f64:1x1x1 f64:12x144x12 f64:1584x1100x11 f64:144x1100x11x11 f64:121x1100x144 \
      --configs "32,32,4,4,4,- 64,32,16,4,4,f" --reps 30 --budget 20 --total 50 2>/dev/null | grep '"config"' | \
      sed "s/^{/{\"diag\":$v,\"round\":$r,/" >> "$OUT/reread.jsonl"
  done
done
python3 - "$OUT/reread.jsonl" <<'PY'
import json, sys, statistics
rows = {}
for l in open(sys.argv[1]):
    d = json.loads(l)
    rows.setdefault((d["case"], d["config"]), {}).setdefault(d["diag"], []).append(d["median_ms"] * 1e3)
print("case config: us once | twice (three rounds each)")
for (c, g), v in rows.items():
    a, b = v.get(0, []), v.get(4, [])
    print(f"{c:22s} {g:20s} {statistics.median(a):7.2f} | {statistics.median(b):7.2f}   {a} | {b}")
PY
