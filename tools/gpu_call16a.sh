#!/bin/sh
# Sixteenth session, first call: the opt-in 3-multiply form of complex products
# (TENFERRO_VK_GEMM_3M=1) against the default 4-multiply form, both orders, and PyTorch in the
# same call (peer_bench.py gemm); the GPU tests on the H200 (Gemm3MTest, and
# DivF32IsCorrectlyRounded in its strict form: every quotient exact, subnormal operands too).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
for t in vk_gemm_gpu_test vk_analytic_accuracy_test; do
  timeout 150 "$T/$t" > "$OUT/$t.log" 2>&1
  echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure|Which is|want|flushed' "$OUT/$t.log" | head -12 | tr '\n' ' ')" >> "$OUT/checks.txt"
done
rm -f "$OUT"/*.log
cases="c32_4096 c64_2048 c32:8192x8192x8192 c32:2048x2048x2048 c32:1024x1024x1024 c64:4096x4096x4096 c64:1024x1024x1024"
timeout 60 "$G" $cases --reps 1 > /dev/null 2>&1
TENFERRO_VK_GEMM_3M=1 timeout 60 "$G" $cases --reps 1 > /dev/null 2>&1
for o in a b; do
  for m in 0 1; do
    echo "== 3m=$m order $o" >> "$OUT/gemm.txt"
    TENFERRO_VK_GEMM_3M=$m timeout 90 "$G" $cases --reps 10 >> "$OUT/gemm.txt" 2>&1
  done
  cases=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
done
timeout 150 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
echo "== checks"; cat "$OUT/checks.txt"
echo "== gemm"; grep -E "^==|TFLOP|median" "$OUT/gemm.txt" | cut -c1-150
echo "== peers"; grep -E "complex|float" "$OUT/peers.jsonl" | cut -c1-200
