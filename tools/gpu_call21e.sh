#!/bin/sh
# Twenty-first session, fifth call: the f64 products of lm_batch_likelihood_sentence_3_12d (compact
# operands) on the default against other tiles (sweep), in-stream medians.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
timeout 280 "$B/tenferro_bench_vk_gemm" sweep f64:12x12x144x1100 f64:13200x144x12 f64:12x13200x12x12 \
  f64:1584x1100x11 f64:144x1100x11x11 f64:121x1100x144 f64:1728x1100x144 f64:12x12x12x1100 f64:144x144x144 \
  --reps 30 --budget 28 --total 270 --configs "32,32,4,4,4,-,1 32,32,8,4,4,-,1 16,16,16,2,2,-,1 16,16,8,2,2,-,1 \
  32,32,16,4,4,-,1 64,32,8,4,4,-,1 32,64,8,4,4,-,1 64,64,8,4,4,wfuy,1 64,64,4,4,4,-,1 16,64,8,2,4,wy,1 \
  64,16,8,4,2,-,1 small 64,128,16,8,8,fs,1 128,32,16,8,4,-,1 32,32,16,4,4,-,2 32,32,16,4,4,-,4" > "$OUT/sweep.jsonl" 2>&1
sweep_summary "$OUT/sweep.jsonl"
