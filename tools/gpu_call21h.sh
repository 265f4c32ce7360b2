#!/bin/sh
# Twenty-first session, ninth call: narrow f32, c32 and c64 products (the wide / tall rows' 64 x 64
# or 128 x 32 tiles, as f64's before the narrow rows) against narrower tiles (sweep, in-stream
# medians of 10). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
timeout 110 "$B/tenferro_bench_vk_gemm" sweep f32:11x415800x64 f32:16x200000x512 f32:415800x11x64 f32:200000x16x512 \
  --reps 10 --budget 25 --total 105 --configs "16,64,16,4,4,-,1 16,128,8,4,8,-,1 16,128,16,4,8,-,1 32,64,8,4,4,-,1 \
  32,128,16,4,8,-,1 64,16,16,4,4,-,1 128,16,8,8,4,-,1 128,16,16,8,4,-,1 64,32,16,4,4,-,1" > "$OUT/sweep_f32.jsonl" 2>&1
timeout 130 "$B/tenferro_bench_vk_gemm" sweep c32:11x200000x64 c32:16x100000x512 c64:11x200000x64 c64:16x100000x512 \
  c32:200000x11x64 c64:200000x11x64 --reps 10 --budget 20 --total 125 --configs "16,64,8,2,4,-,1 16,64,16,2,4,-,1 \
  32,64,8,4,4,-,1 32,128,8,4,8,-,1 64,16,8,4,2,-,1 128,16,8,8,2,-,1 16,32,8,2,2,-,1 32,32,8,2,2,-,1" \
  > "$OUT/sweep_complex.jsonl" 2>&1
sweep_summary "$OUT/sweep_f32.jsonl"
sweep_summary "$OUT/sweep_complex.jsonl"
