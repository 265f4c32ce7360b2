#!/bin/sh
# Seventeenth session, fifth call: the Ozaki-II opt-in with its time model (ozaki_faster) on the
# H200: TENFERRO_VK_GEMM_OZAKI=12 and 14 against the default, f64 4096^3, 8192^3, 2048^3 and
# 1024 x 256^3 (the model takes 12 moduli at 4096^3, 12 and 14 at 8192^3, neither elsewhere),
# one process per setting, 5 timed calls. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
cases="f64_4096 f64:8192x8192x8192 f64:2048x2048x2048 f64_batched"
for n in 0 12 14; do
  echo "== ozaki=$n" >> "$OUT/gemm.txt"
  TENFERRO_VK_GEMM_OZAKI=$n timeout 60 "$G" $cases --reps 5 >> "$OUT/gemm.txt" 2>&1
done
grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed 's/ M=.*tile=[^ ]* [^ ]*//; s/ (best [^)]*)//; s/  check / /' | cut -c1-110
