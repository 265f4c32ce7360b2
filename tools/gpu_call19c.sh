#!/bin/sh
# Nineteenth session, third call (this build: unsigned residues, the split's exact quotient,
# the combine's hoisted loads): the Ozaki-II passes at f64 4096^3 with 8, 14 and 20 moduli
# (N:14 scan / scale, N:6 operand passes, N:3 combine, N:0 whole; for the time model's refit),
# two orders; then the interior loop (`u`) on the f64 einsum products of the MERA instances and
# their neighbours: a sweep of the defaults 64 x 64 4 x 4 `wfy` and 64 x 128 8 x 8 `fs` with
# and without `u`, one untimed pass (the driver's first compilations), then two timed passes in
# opposite case orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
ozaki_rounds "f64_4096" "8:14 8:6 8:3 8:0 14:14 14:6 14:3 14:0 20:14 20:6 20:3 20:0"
cases="f64:540x270x136x216 f64:540x58320x136 f64:399x4320x594 f64:177147x243x50 f64:12474x810x154 f64:252x39600x56 f64:480x4620x243 f64:924x1215x360 f64:594x4320x207 f64:1728x1100x144 f64:13200x252x56 f64:4536x945x54"
cfgs="64,64,8,4,4,wfy,1 64,64,8,4,4,wfuy,1 64,128,16,8,8,fs,1 64,128,16,8,8,fsu,1"
timeout 200 "$B/tenferro_bench_vk_gemm" sweep $cases --reps 2 --total 190 --configs "$cfgs" > /dev/null 2>&1
timeout 200 "$B/tenferro_bench_vk_gemm" sweep $cases --reps 10 --total 190 --configs "$cfgs" > "$OUT/u_sweep_a.jsonl" 2>&1
rev=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
timeout 200 "$B/tenferro_bench_vk_gemm" sweep $rev --reps 10 --total 190 --configs "$cfgs" > "$OUT/u_sweep_b.jsonl" 2>&1
echo "== gemm"; gemm_summary
echo "== sweep"
for f in "$OUT"/u_sweep_a.jsonl "$OUT"/u_sweep_b.jsonl; do
  grep '"config"' "$f" | sed 's/{"case":"f64:\([^"]*\)","config":"\([^"]*\)","median_ms":\([0-9.]*\).*/\1 \2 \3/'
done
