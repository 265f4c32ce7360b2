#!/bin/sh
# Twenty-seventh session, call 4 (carry [".gl", ".gpubench"]): why C's stores alone
# (TENFERRO_VK_GEMM_DIAG=2, no slice loop) run at 0.8 TB/s for 177147 x 243 and 2.9 TB/s for
# 177152 x 256: scalar against 16-byte stores, odd column offsets, a partial last column tile,
# C's layout (n at unit stride), at the same tile.
# TENFERRO_VK_GEMM_DIAG exists only in the experiment build
# (bench/results/2026-12-03-h200-session27/experiment_stage_diag.patch).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
one() {  # one TILE DIAG CASE [ARGS]
  echo "== tile=$1 diag=$2 $3 ${4:-}"
  env ${1:+TENFERRO_VK_GEMM_TILE=$1} TENFERRO_VK_GEMM_DIAG=$2 timeout 60 "$G" "$3" ${4:-} --reps 10 2>&1 | grep -E "TFLOP|error"
}
all() {
  T1=64,128,16,8,8,fs,1
  for c in f64:177147x243x50 f64:177152x243x50 f64:177152x256x50 f64:177147x256x50 f64:177146x256x50 \
    f64:177148x256x50 f64:177088x256x50 f64:65536x512x50 f64:65537x512x50; do
    one $T1 2 $c
  done
  one $T1 2 f64:177147x243x50 "--c-layout transposed"
  one $T1 2 f64:177152x256x50 "--c-layout transposed"
  one $T1 0 f64:177152x256x50 "--c-layout transposed"
  one 64,64,8,4,4,wfu,1 2 f64:177147x243x50
  one 64,64,8,4,4,wfu,1 2 f64:177152x256x50
}
all > /dev/null 2>&1
all > "$OUT/diag2.txt" 2>&1
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check .*//; s/^f64:[^ ]* f64  //' "$OUT/diag2.txt" | paste - - | cut -c1-150
