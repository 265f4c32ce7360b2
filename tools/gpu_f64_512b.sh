#!/bin/sh
# Eighth session: f64 512^3 (the one small size over 1.5x of PyTorch in the final run: 0.045 vs
# 0.027 ms per call + synchronize). Candidate tiles with K splits in a stream (two orders), then
# the three best-guess candidates and the default as single calls + synchronize, alternating.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
sweep2 f512 "f64:512x512x512" "64,32,16,4,4,fu,1 64,32,16,4,4,fu,2 64,32,16,4,4,fu,4 32,32,16,4,4,fu,1 \
32,32,16,4,4,fu,2 32,32,16,4,4,fu,4 64,64,16,4,4,fu,2 64,64,16,4,4,fu,4 64,64,8,4,4,wfu,4 32,32,8,4,4,f,4 \
128,64,8,4,8,fu,4 64,32,8,4,4,fu,2" 40
summarize2
for r in 1 2 3; do
  for t in default 64,32,16,4,4,fu,2 32,32,16,4,4,fu,2 64,64,16,4,4,fu,4; do
    if [ $t = default ]; then "$G" f64_512 --reps 30 2>/dev/null | grep f64_512;
    else TENFERRO_VK_GEMM_TILE=$t "$G" f64_512 --reps 30 2>/dev/null | grep f64_512; fi
  done
done | tee "$OUT/single.txt"
