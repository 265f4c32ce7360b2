#!/bin/sh
# Eighteenth session, sixth call (figures of record for the reworked Ozaki-II element passes):
# vk_gemm_gpu_test on the H200 (every GEMM test); f64 4096^3, 8192^3, 2048^3 and 1024 x 256^3
# on the FMA kernels (0), the scheme forced with 12, 14 and 16 moduli (N:0), and through the
# time model (12, 14), two orders; PyTorch (peer_bench.py gemm) in the same call; then nvdisasm
# of the code sections in $B/codes (extracted here from call 5's shader cache).
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*'
ozaki_rounds "f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched" "0 12:0 14:0 16:0 12 14"
timeout 150 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
mkdir -p /tmp/dis
for f in "$B"/codes/*.code; do
  [ -f "$f" ] || continue
  s=/tmp/dis/$(basename "$f").sass
  /usr/local/cuda/bin/nvdisasm -b SM90 "$f" > "$s" 2>&1
  echo "$(basename "$f") instr $(grep -c '/\*[0-9a-f]*\*/' "$s") STL $(grep -c STL "$s") LDL $(grep -c LDL "$s") IMAD.HI $(grep -c 'IMAD.HI' "$s") MMA $(grep -c 'MMA' "$s") STG $(grep -c STG "$s") LDG $(grep -c LDG "$s") LDS $(grep -c LDS "$s") BAR $(grep -c BAR "$s")" >> "$OUT/sass.txt"
done
tar cJf "$OUT/dis.tar.xz" -C /tmp dis
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
echo "== peers"; grep -E "float64" "$OUT/peers.jsonl" | cut -c1-200
echo "== sass"; cat "$OUT/sass.txt"
