#!/bin/sh
# Seventeenth session, third call: where the Ozaki-II product's time goes (H200). f64 4096^3 and
# 8192^3 with 12 and 14 moduli, each with passes skipped (tenferro_bench_vk_gemm --ozaki-skip
# N:S; S bits: 1 scan + split, 2 residue products, 4 combine; the skipped runs' results are
# wrong by design), one process per setting, two orders. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
cases="f64_4096 f64:8192x8192x8192"
timeout 60 "$G" $cases --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1
for o in a b; do
  for s in 0 1 2 4 3 5 6; do
    for n in 12 14; do
      echo "== ozaki=$n skip=$s order $o" >> "$OUT/gemm.txt"
      timeout 60 "$G" $cases --reps 10 --ozaki-skip $n:$s >> "$OUT/gemm.txt" 2>&1
    done
  done
  cases=$(echo $cases | tr ' ' '\n' | tac | tr '\n' ' ')
done
grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed 's/ M=.*tile=[^ ]* [^ ]*//; s/  check.*//' | paste - - - | cut -c1-160
