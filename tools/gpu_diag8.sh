#!/bin/sh
# Eighth session, fourth run: where the output-bound GEMMs of lm_batch_likelihood_sentence_3_12d
# spend their time. `tenferro_bench_vk_gemm_diag` is a scratch build (patch in
# bench/results/2026-12-01-h200-session8/diag/) whose environment variable TFG_DIAG sets
# diagnostic bits of specialization constant 2: 1 = no epilogue stores, 2 = no K loop (tile
# setup and epilogue only); results are wrong by design (ok false). Then candidate tiles for
# the einsum's slow steps, in two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
D="$B/tenferro_bench_vk_gemm_diag"
OUTB="f64:1584x1100x11 f64:13200x144x12 f64:144x1100x11x11 f64:13200x12x12x12 f64:1728x1100x144"
for v in 0 1 2 3; do
  TFG_DIAG=$v timeout 60 "$D" sweep $OUTB --configs "32,32,4,4,4,-" --reps 15 --budget 20 --total 50 | \
    sed "s/^{/{\"diag\":$v,/" > "$OUT/diag$v.txt" 2>&1
done
sweep2 big "f64:1728x1100x144" "64,128,16,8,8,fs,1 64,128,16,8,8,fs,2 64,64,8,4,4,wf,1 64,64,16,4,4,fu,1 \
64,32,16,4,4,fu,1 32,32,16,4,4,fu,1 128,64,8,4,8,fu,1 64,128,16,8,8,fsu,1" 40
sweep2 batched "f64:12x12x144x1100 f64:12x144x144x12" "small 16,16,16,2,2,-,0 32,32,16,4,4,-,1 16,16,16,2,2,-,3 \
32,32,16,4,4,-,3 16,16,8,2,2,-,1 16,16,16,2,2,n,1 32,32,8,4,4,-,1" 40
sweep2 outb "f64:1584x1100x11 f64:13200x144x12" "32,32,4,4,4,- 64,64,4,4,4,- 64,32,4,4,4,- 32,64,4,4,4,- \
128,32,4,4,4,- 64,64,4,8,8,- 32,32,4,2,2,- small" 40
summarize2
echo "== diagnostic build (case config ms per TFG_DIAG 0 1 2 3)"
cat "$OUT"/diag*.txt | grep '"config"' | \
  sed 's/.*"diag":\([0-9]\),"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*/\2 \3 \1 \4/' | \
  awk '{ k = $1 " " $2; if (!(k in s)) order[++n] = k; s[k] = s[k] " " $4 } END { for (i = 1; i <= n; i++) print order[i] s[order[i]] }'
