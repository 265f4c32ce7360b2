#!/bin/sh
# Thirteenth session, first call on the lent GPU: 1) tools/gpu_cstore12.sh (is the chained C slow
# for its store pattern or for its pipeline?); 2) f64 1024^3 (bin_matmul_1024's product, 0.131 ms
# against PyTorch's 0.112 in the twelfth session) on its default (128 x 64 4 x 8 `wfuy`, 128
# tiles: under one wave of 132 SMs) against split-K and finer tiles; 3) the instance itself.
set -u
. tools/gpu_env.sh
sh tools/gpu_cstore12.sh
G="$B/tenferro_bench_vk_gemm"
C="128,64,8,4,8,wfuy,1 128,64,8,4,8,wfuy,2 128,64,16,8,8,fu,1 128,64,16,8,8,fu,2 128,64,16,8,8,wfuy,2 \
64,128,16,8,8,fsu,2 64,64,16,4,4,wfy,1 64,64,16,4,4,wfy,2 64,64,8,4,8,wfuy,1 64,64,8,4,8,wfuy,2 \
64,32,16,4,4,wfuy,1 128,128,8,8,8,fsul,2 128,128,8,8,8,fsul,4"
for i in 1 2; do
  timeout 60 "$G" sweep f64:1024x1024x1024 --configs "$C" --budget 20 --total 50 >> "$OUT/f64_1024.jsonl" 2>&1
done
grep '"config"' "$OUT/f64_1024.jsonl" | python3 -c '
import sys, json
for l in sys.stdin:
    d = json.loads(l); print("f64_1024 %-22s %.4f ms %s" % (d["config"], d["median_ms"], d.get("ok")))'
for i in 1 2 3; do
  timeout 60 "$B/tenferro" einsum "$B/instances/bin_matmul_1024.json" --backend vulkan --dtype f64 --path opt_size \
    --repeat 30 2>&1 | grep -i median
done
