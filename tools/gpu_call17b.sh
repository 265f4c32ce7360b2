#!/bin/sh
# Seventeenth session, second call: the opt-in Ozaki-II f64 product (TENFERRO_VK_GEMM_OZAKI=n)
# on the H200: GemmOzakiTest (the tensor-core residue kernel ozaki_mm_nv and the portable one)
# and Gemm3MTest (the fallback test's memory cap, fixed after call 1); then f64 products with
# n = 12, 14, 16, 18, 20 moduli against the default FMA kernels, two orders, one process per
# setting and order (10 timed calls each, median; `err`: the largest |got - want| / sum |a||b| of
# 16 sampled elements), and PyTorch (peer_bench.py gemm) in the same call.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
timeout 240 "$T/vk_gemm_gpu_test" --gtest_filter='GemmOzaki*:Gemm3M*' > "$OUT/test.log" 2>&1
echo "vk_gemm_gpu_test Ozaki/3M rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure' "$OUT/test.log" | head -8 | tr '\n' ' ')" > "$OUT/checks.txt"
grep -A3 Failure "$OUT/test.log" | head -30 >> "$OUT/checks.txt"
rm -f "$OUT/test.log"
cases="f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched"
for n in 0 14; do TENFERRO_VK_GEMM_OZAKI=$n timeout 60 "$G" $cases --reps 1 > /dev/null 2>&1; done
for o in a b; do
  for n in 0 12 14 16 18 20; do
    echo "== ozaki=$n order $o" >> "$OUT/gemm.txt"
    TENFERRO_VK_GEMM_OZAKI=$n timeout 90 "$G" $cases --reps 10 >> "$OUT/gemm.txt" 2>&1
  done
  cases=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
done
timeout 150 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== gemm"; grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed 's/ M=.*tile=[^ ]* [^ ]*//' | cut -c1-140
echo "== peers"; grep -E "float64|f64" "$OUT/peers.jsonl" | cut -c1-200
