#!/bin/sh
# Seventeenth session, fourth call (figures of record for the opt-in Ozaki-II f64 product, after
# the scan pass's rework): GemmOzakiTest on the H200; f64 products with 12, 14 and 16 moduli
# against the default FMA kernels (ozaki=0), two orders, one process per setting and order (10
# timed calls, median; err = largest |got - want| / sum |a||b| of 16 sampled elements); the pass
# breakdown with 14 moduli (--ozaki-skip); PyTorch (peer_bench.py gemm) in the same call.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
timeout 120 "$T/vk_gemm_gpu_test" --gtest_filter='GemmOzaki*' > "$OUT/test.log" 2>&1
echo "GemmOzakiTest rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure' "$OUT/test.log" | head -8 | tr '\n' ' ')" > "$OUT/checks.txt"
rm -f "$OUT/test.log"
cases="f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched"
for n in 0 14; do TENFERRO_VK_GEMM_OZAKI=$n timeout 60 "$G" $cases --reps 1 > /dev/null 2>&1; done
for o in a b; do
  for n in 0 12 14 16; do
    echo "== ozaki=$n order $o" >> "$OUT/gemm.txt"
    TENFERRO_VK_GEMM_OZAKI=$n timeout 90 "$G" $cases --reps 10 >> "$OUT/gemm.txt" 2>&1
  done
  for s in 6 5 3; do
    echo "== ozaki=14 skip=$s order $o" >> "$OUT/gemm.txt"
    timeout 60 "$G" f64_4096 f64:8192x8192x8192 --reps 10 --ozaki-skip 14:$s >> "$OUT/gemm.txt" 2>&1
  done
  cases=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
done
timeout 150 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed 's/ M=.*tile=[^ ]* [^ ]*//; s/ (best [^)]*)//; s/  check / /' | cut -c1-110
echo "== peers"; grep -E "float64" "$OUT/peers.jsonl" | cut -c1-200
