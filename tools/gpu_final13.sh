#!/bin/sh
# Thirteenth session, last call: the figure-of-record run (tools/gpu_bench.sh, chained C on by
# default now), then a sweep of tiles for mera_open's output-bound products (short K, large
# outputs: candidates for the next session's tile choice).
set -u
sh tools/gpu_bench.sh
. tools/gpu_env.sh
C="64,128,16,8,8,fs,1 64,128,16,8,8,fsu,1 128,64,16,8,8,fu,1 64,64,16,4,4,wfy,1 64,64,8,4,8,wfuy,1 128,64,8,4,8,wfuy,1 \
64,32,16,4,4,wfuy,1 128,128,8,8,8,wfsuly,1"
timeout 100 "$B/tenferro_bench_vk_gemm" sweep f64:177147x243x50 f64:12474x810x154 f64:252x39600x56 f64:196830x45x11 \
  --configs "$C" --budget 15 --total 90 > "$OUT/mera_sweep.jsonl" 2>&1
grep '"config"' "$OUT/mera_sweep.jsonl" | python3 -c '
import sys, json
for l in sys.stdin:
    d = json.loads(l); print("%-18s %-22s %.4f ms %s" % (d["case"], d["config"], d["median_ms"], d.get("ok")))'
