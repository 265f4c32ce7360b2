#!/bin/sh
# Diagnostic run on the lent GPU (bench/RESULTS.md, fifth session): f64 512^3 single calls on
# tiles with more threads per tile (2 x 2, 4 x 2 and 2 x 4 per thread), forced through
# TENFERRO_VK_GEMM_TILE, next to the default and PyTorch's small GEMMs in the same run.
set -u
. tools/gpu_env.sh
: > "$OUT/f64_512.txt"
timeout 20 "$B/tenferro_bench_vk_gemm" f64_512 f64_256 --reps 15 >> "$OUT/f64_512.txt" 2>&1
for cfg in 64,32,16,2,2,-,1 64,32,16,4,2,-,1 64,32,16,2,4,-,1 64,32,16,4,2,f,1 64,32,16,2,4,f,1 \
  64,64,16,4,2,-,1 64,64,16,2,4,-,1 64,64,16,4,4,f,1 32,32,16,2,2,f,1 32,64,16,2,4,f,1 128,32,16,4,2,-,1 \
  64,32,16,4,4,f,1; do
  TENFERRO_VK_GEMM_TILE=$cfg timeout 20 "$B/tenferro_bench_vk_gemm" f64_512 --reps 15 >> "$OUT/f64_512.txt" 2>&1
done
timeout 60 python3 "$B/peer_gemm_small.py" --no-jax > "$OUT/peer_small.jsonl" 2>&1
grep median "$OUT/f64_512.txt" | sed 's/  */ /g' | cut -d' ' -f1,7-12
grep -h '"float64_512\|"float64_256' "$OUT/peer_small.jsonl"
