#!/bin/sh
# Sixteenth session, fourth call: f64 512^3 single call (issue 5's "within 1.5x of PyTorch":
# 1.53-1.61x in the third call) on forced configurations, one process each (host clock around
# one call + synchronize, 30 timed calls), two orders, the default twice per order; PyTorch's
# single call in the same call (tools/peer_gemm_small.py).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
C="default 64,32,16,4,4,wfuy,2 64,32,16,4,4,wfuy,4 32,32,16,4,4,wfuy,1 32,32,16,4,4,wfuy,2 32,32,16,2,2,wfuy,1
64,32,8,4,4,wfuy,1 64,32,8,4,4,wfuy,2 64,64,16,4,4,wfuy,2 64,64,16,4,4,wfuy,4 32,64,16,4,4,wfuy,1
32,64,16,4,4,wfuy,2 64,32,32,4,4,wfuy,1 16,16,16,2,2,wy,1 32,32,8,4,4,wfuy,2 default"
timeout 20 "$G" f64_512 --reps 3 > /dev/null 2>&1
for o in a b; do
  for c in $C; do
    t=$c; [ "$c" = default ] && t=""
    echo "$o $c $(TENFERRO_VK_GEMM_TILE=$t timeout 20 "$G" f64_512 --reps 30 2>&1 | grep TFLOP | sed -E 's/ +M=.*tile=//')" >> "$OUT/f64_512.txt"
  done
  C=$(echo $C | tr ' ' '\n' | tac | tr '\n' ' ')
done
timeout 60 python3 "$B/peer_gemm_small.py" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
cat "$OUT/f64_512.txt" | cut -c1-150
grep -E 'float64_(256|512)' "$OUT/peers.jsonl"
