#!/bin/sh
# Sixteenth session, third call: the issue-5 GEMM figures again with more timed calls, in two
# orders (the second call's gpu_bench.sh run had f32 4096^3 at 42.5 TFLOP/s median, best 46.0,
# as its process's first case on a GPU that had idled at 345 MHz), the complex cases in the
# opt-in 3-multiply form, the small sizes single-call; PyTorch and JAX in the same call.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
S="f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512"
L="f32_4096 f32_8192 f64_4096 c32_4096 c64_2048 f64_batched"
timeout 90 "$G" $L $S --reps 2 > /dev/null 2>&1
TENFERRO_VK_GEMM_3M=1 timeout 30 "$G" c32_4096 c64_2048 --reps 2 > /dev/null 2>&1
for o in a b; do
  echo "== order $o" >> "$OUT/gemm.txt"
  timeout 120 "$G" $L --reps 20 >> "$OUT/gemm.txt" 2>&1
  echo "== 3M order $o" >> "$OUT/gemm.txt"
  TENFERRO_VK_GEMM_3M=1 timeout 60 "$G" c32_4096 c64_2048 --reps 20 >> "$OUT/gemm.txt" 2>&1
  echo "== small order $o" >> "$OUT/gemm.txt"
  timeout 60 "$G" $S --reps 30 >> "$OUT/gemm.txt" 2>&1
  L=$(echo $L | tr ' ' '\n' | tac | tr '\n' ' ')
  S=$(echo $S | tr ' ' '\n' | tac | tr '\n' ' ')
done
timeout 150 python3 "$B/peer_warm.py" "$B/peer_bench.py" gemm --instances "$B/instances" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
timeout 60 python3 "$B/peer_gemm_small.py" >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed -E 's/ +M=.*tile=default / /; s/  check ok//' | cut -c1-120
grep -E '"gemm"' "$OUT/peers.jsonl" | cut -c1-160
