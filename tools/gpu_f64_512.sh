#!/bin/sh
# Seventh session, last run: f64 512^3 single calls on the mid rung 64 x 32 4 x 4 without and
# with the interior loop (u), alternating, and PyTorch's small sizes in the same call.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
timeout 30 "$G" f64_512 f64_256 --reps 3 > /dev/null 2>&1
for i in 1 2; do
  timeout 30 "$G" f64_512 --reps 20 > "$OUT/f_$i.txt" 2>&1
  TENFERRO_VK_GEMM_TILE=64,32,16,4,4,fu,0 timeout 30 "$G" f64_512 --reps 20 > "$OUT/fu_$i.txt" 2>&1
done
timeout 60 python3 "$B/peer_gemm_small.py" --no-jax > "$OUT/peers_small.jsonl" 2> "$OUT/peers_err.txt"
for f in "$OUT"/f_*.txt "$OUT"/fu_*.txt; do echo "$(basename $f): $(grep -i 'f64_512' $f | head -2 | tr '\n' ' ')"; done
grep -i '512' "$OUT/peers_small.jsonl"
