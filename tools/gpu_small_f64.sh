#!/bin/sh
# Diagnostic run on the lent GPU (bench/RESULTS.md, fifth session): f64 256^3 and 512^3 single
# calls (gemm + synchronize, as tools/peer_gemm_small.py times PyTorch) on a list of tiles and
# K splits, each forced through TENFERRO_VK_GEMM_TILE, then the defaults again.
# Run after tools/gpu_bench.sh in the same command (same staging). About 90 seconds.
set -u
. tools/gpu_env.sh
: > "$OUT/small_f64.txt"
for cfg in 32,32,16,4,4,-,1 32,32,16,4,4,-,2 32,32,16,4,4,-,4 32,32,16,4,4,f,1 32,32,16,4,4,f,2 \
  32,32,16,4,4,f,4 32,32,8,4,4,-,2 32,32,8,4,4,-,4 16,16,16,2,2,-,1 16,16,16,2,2,-,2 32,32,16,2,2,-,1 \
  32,32,16,2,2,-,2 32,32,32,4,4,-,2 64,32,16,4,4,f,2 64,32,16,4,4,f,4; do
  TENFERRO_VK_GEMM_TILE=$cfg timeout 20 "$B/tenferro_bench_vk_gemm" f64_256 --reps 15 >> "$OUT/small_f64.txt" 2>&1
done
for cfg in 64,32,16,4,4,f,1 64,32,16,4,4,f,2 64,32,16,4,4,f,4 32,32,16,4,4,-,1 32,32,16,4,4,f,1 \
  32,32,16,4,4,f,2 32,32,16,2,2,-,1 64,64,16,4,4,f,2 64,64,16,4,4,f,4 64,64,16,8,8,f,4 128,64,16,8,4,wfs,2 \
  128,64,16,8,4,wfs,4; do
  TENFERRO_VK_GEMM_TILE=$cfg timeout 20 "$B/tenferro_bench_vk_gemm" f64_512 --reps 15 >> "$OUT/small_f64.txt" 2>&1
done
timeout 30 "$B/tenferro_bench_vk_gemm" f64_256 f64_512 f32_256 f32_512 --reps 15 >> "$OUT/small_f64.txt" 2>&1
timeout 60 python3 "$B/peer_gemm_small.py" --no-jax > "$OUT/peer_small2.jsonl" 2>&1
grep -h median "$OUT/small_f64.txt" | sed 's/  */ /g' | cut -d' ' -f1,7-12
grep -h '"f64' "$OUT/peer_small2.jsonl" | head -8
