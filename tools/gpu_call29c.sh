#!/bin/sh
# Twenty-ninth session, call 3 (carry [".gl", ".gpubench"]): c64 2048^3's spread (the figure run
# of call 2: median 26.34 TFLOP/s, best 29.26), rounds of 20 calls before and after PyTorch's GEMM
# cases (../shared/tools/peer_bench.py gemm) in the same run; f64 4096^3 and batched as controls.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
timeout 60 "$G" c64_2048 f64_4096 --reps 2 > /dev/null 2>&1
for r in 1 2 3; do timeout 60 "$G" c64_2048 f64_4096 f64_batched --reps 20 2>&1 | grep TFLOP >> "$OUT/ours.txt"; done
timeout 150 python3 "$B/peer_warm.py" "$B/peer_bench.py" gemm > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
for r in 4 5; do timeout 60 "$G" c64_2048 f64_4096 f64_batched --reps 20 2>&1 | grep TFLOP >> "$OUT/ours.txt"; done
sed 's/ M=.*tile=[^ ]* [^ ]* / /; s/  check.*//' "$OUT/ours.txt"
grep -h '"gemm"' "$OUT/peers.jsonl" | grep -v f32
