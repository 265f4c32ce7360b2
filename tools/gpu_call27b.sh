#!/bin/sh
# Twenty-seventh session, call 3 (carry [".gl", ".gpubench"]): the short-K products' time split
# with the diagnostic switches TENFERRO_VK_GEMM_DIAG (1: no stores of C, 2: no slice loop,
# 3: neither; an experiment build, not committed): what the epilogue's stores cost at K = 8, 50, 256.
# TENFERRO_VK_GEMM_DIAG exists only in the experiment build
# (bench/results/2026-12-03-h200-session27/experiment_stage_diag.patch).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
one() {  # one TILE DIAG CASE
  echo "== tile=$1 diag=$2 $3"
  env ${1:+TENFERRO_VK_GEMM_TILE=$1} TENFERRO_VK_GEMM_DIAG=$2 timeout 60 "$G" "$3" --reps 10 2>&1 | grep -E "TFLOP|error"
}
all() {
  T1=64,128,16,8,8,fs,1
  for c in f64:177147x243x8 f64:177147x243x50 f64:177147x243x256; do
    for d in 0 1 2 3; do one $T1 $d $c; done
  done
  for c in f64:12474x810x154 f64:196830x45x11 f64:4096x4096x1 f64:177152x256x48; do
    for d in 0 1 2; do one "" $d $c; done
  done
  for d in 0 2; do one $T1 $d f64:4096x4096x1; done
}
all > /dev/null 2>&1
all > "$OUT/diag.txt" 2>&1
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check .*//; s/^f64:[^ ]* f64  //' "$OUT/diag.txt" | paste - - | cut -c1-150
