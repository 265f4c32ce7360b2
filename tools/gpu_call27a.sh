#!/bin/sh
# Twenty-seventh session, call 2 (carry [".gl", ".gpubench"]): where a short-K f64 product with a
# large output spends its time (str_nw_mera_open_26's 177147 x 243 x 50 runs at ~9 TFLOP/s, 3x its
# FMA-bound time). One tile forced per series, K swept (the time's intercept: per tile; its
# slope: per K slice), M a multiple of 64 (no boundary tiles, 16-byte stores of C), other tiles.
# One untimed process compiles every pipeline; the timed process follows.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
series() {  # series TILE CASES...
  t=$1; shift
  for c in "$@"; do
    echo "== $t $c"
    env ${t:+TENFERRO_VK_GEMM_TILE=$t} timeout 60 "$G" "$c" --reps 10 2>&1 | grep -E "TFLOP|error"
  done
}
all() {
  T1=64,128,16,8,8,fs,1
  T2=64,64,8,4,4,wfu,1
  series $T1 f64:177147x243x8 f64:177147x243x16 f64:177147x243x32 f64:177147x243x48 f64:177147x243x50 \
    f64:177147x243x64 f64:177147x243x96 f64:177147x243x128 f64:177147x243x256
  series $T2 f64:177147x243x16 f64:177147x243x32 f64:177147x243x48 f64:177147x243x64 f64:177147x243x128
  series $T1 f64:177152x243x50 f64:177152x256x48 f64:177152x256x64
  series "" f64:177147x243x50 f64:12474x810x154 f64:252x39600x56 f64:196830x45x11
  for t in 64,128,8,8,8,fs,1 64,128,16,8,8,f,1 64,128,16,8,8,wfs,1 64,128,16,8,8,fsg,1 128,64,16,8,8,fsu,1 \
    128,128,16,8,8,fs,1 64,128,16,8,8,fsu,1 32,128,16,4,8,-,1; do
    series $t f64:177147x243x50
  done
}
all > /dev/null 2>&1
all > "$OUT/shortk.txt" 2>&1
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check ok.*//' "$OUT/shortk.txt" | paste - - | cut -c1-150
