#!/bin/sh
# Nineteenth session, seventh call: the transposed orientations of two products whose new rule
# (kF64WaveShort with u up to 32M outputs) was measured in one orientation only (call 3):
# 810 x 12474 x 154 and 39600 x 252 x 56, 64 x 64 4 x 4 `wfuy` (now the default) against 64 x
# 128 8 x 8 `fs`; one untimed pass, then two passes in opposite case orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
cases="f64:810x12474x154 f64:39600x252x56 f64:12474x810x154"
cfgs="64,64,8,4,4,wfuy,1 64,128,16,8,8,fs,1"
timeout 60 "$B/tenferro_bench_vk_gemm" sweep $cases --reps 2 --configs "$cfgs" > /dev/null 2>&1
timeout 60 "$B/tenferro_bench_vk_gemm" sweep $cases --reps 10 --configs "$cfgs" > "$OUT/t_sweep_a.jsonl" 2>&1
rev=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
timeout 60 "$B/tenferro_bench_vk_gemm" sweep $rev --reps 10 --configs "$cfgs" > "$OUT/t_sweep_b.jsonl" 2>&1
for f in "$OUT"/t_sweep_a.jsonl "$OUT"/t_sweep_b.jsonl; do
  grep '"config"' "$f" | sed 's/{"case":"f64:\([^"]*\)","config":"\([^"]*\)","median_ms":\([0-9.]*\).*/\1 \2 \3/'
done
