#!/bin/sh
# Twenty-fifth session, call 5 (carry [".gl", ".gpubench"]): a sweep of larger f64 tiles (128 x
# 128, 64 x 256, 256 x 64: fewer tiles, each operand row read by fewer of them) on the short-K,
# large-output products of the MERA and lm instances, against their defaults.
set -u
. tools/gpu_env.sh
timeout 200 "$B/tenferro_bench_vk_gemm" sweep f64:177147x243x50 f64:12474x810x154 f64:252x39600x56 \
  f64:1728x1100x144 f64:540x270x136x216 --reps 10 --budget 30 --total 180 --configs "128,128,8,8,8,fsul,1 \
  128,128,16,8,8,fs,1 128,128,8,8,8,wf,1 64,256,8,8,8,fs,1 64,256,16,8,8,fs,1 256,64,8,8,8,fs,1 \
  128,64,16,8,8,fsu,1 128,64,8,8,4,wf,1 64,128,8,8,8,fs,1 64,128,16,8,8,fsr,1 64,64,8,4,4,wfuy,1 \
  64,128,16,8,8,fs,1 128,32,16,8,4,wf,1 256,32,8,8,4,wf,1 64,64,16,8,8,fs,1 32,128,16,4,8,wf,1 \
  128,128,16,8,4,wf,1 64,256,8,4,8,wf,1 64,256,16,4,8,wfu,1 128,128,8,4,8,wfu,1" > "$OUT/sweep.jsonl" 2>&1
sweep_summary "$OUT/sweep.jsonl"
