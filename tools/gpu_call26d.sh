#!/bin/sh
# Twenty-sixth session, call 3 (carry [".gl", ".gpubench"]): f64 and f32 512^3 per call inside a
# stream of 50 (issue 5's small sizes; PyTorch 0.0121 / 0.0146 ms in call 1, ours 0.025 / 0.024)
# on forced tiles and K splits (TENFERRO_VK_GEMM_TILE), each configuration run once to compile
# (NVIDIA's first-compile slowdown) and then timed in a second process, in the stream and as
# single calls; then PyTorch's small products (tools/peer_gemm_small.py) in the same call.
set -u
. tools/gpu_env.sh
run_cfg() {  # CASE CONFIG
  env ${2:+TENFERRO_VK_GEMM_TILE=$2} timeout 30 "$B/tenferro_bench_vk_gemm" "$1" --reps 1 > /dev/null 2>&1
  for mode in --stream ""; do
    env ${2:+TENFERRO_VK_GEMM_TILE=$2} timeout 30 "$B/tenferro_bench_vk_gemm" "$1" --reps 10 $mode 2>&1 | grep ' median ' |
      awk -v m="${mode:-single}" '{t = ""; for (i = 1; i <= NF; i++) { if ($i ~ /^tile=/) { t = $i; if ($i == "tile=default") t = t " " $(i + 1) } if ($i == "median") ms = $(i + 1) } print $1, m, t, ms}' >> "$OUT/stream_sweep.txt"
  done
}
for c in "" "64,32,16,4,4,wfuy,2" "64,32,16,4,4,wfuy,4" "32,32,16,4,4,wy,2" "32,32,16,4,4,wy,4" \
  "32,32,16,4,4,wy,8" "64,64,8,4,4,wfuy,2" "64,64,8,4,4,wfuy,4" "16,16,16,2,2,wy,2" "32,64,8,4,4,wy,4"; do
  run_cfg f64_512 "$c"
done
for c in "" "64,32,16,4,4,f,2" "64,32,16,4,4,f,4" "32,32,16,4,4,-,2" "32,32,16,4,4,-,4" "64,64,16,4,4,-,2" \
  "64,64,16,4,4,-,4" "32,64,16,4,4,-,4"; do
  run_cfg f32_512 "$c"
done
timeout 60 python3 "$B/peer_gemm_small.py" --no-jax > "$OUT/peers_small.jsonl" 2> "$OUT/peers_err.txt"
echo "== sweep (case mode config tile ms TFLOP/s)"; cat "$OUT/stream_sweep.txt"
echo "== peers"; grep -E '512' "$OUT/peers_small.jsonl"
