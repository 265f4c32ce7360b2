#!/bin/sh
# Twenty-first session, seventh call: narrow f64 products with longer K (K > 256), where the
# defaults run kF64Huge (128 x 128 tiles, ahead of the classes, when N alone gives 256 tiles) or
# the wide / tall rows (64 x 64, 128 x 32), against the narrow rows and other tiles (sweep,
# in-stream medians). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
timeout 290 "$B/tenferro_bench_vk_gemm" sweep f64:11x415800x300 f64:16x200000x512 f64:32x100000x1024 \
  f64:16x8192x2048 f64:415800x11x300 f64:200000x16x512 f64:12x50000x4096 \
  --reps 10 --budget 38 --total 280 --configs "16,64,8,2,4,wy,1 16,64,16,2,4,wy,1 16,128,8,2,8,-,1 \
  64,16,8,4,2,-,1 64,16,16,4,2,-,1 128,16,8,8,2,-,1 32,64,8,4,4,-,1 32,128,16,4,8,-,1 64,64,16,4,4,wy,1 \
  128,32,16,8,4,-,1 64,32,8,4,4,wfuy,1 16,64,8,2,4,wy,0 64,16,8,4,2,-,0" > "$OUT/sweep.jsonl" 2>&1
sweep_summary "$OUT/sweep.jsonl"
