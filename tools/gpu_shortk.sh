#!/bin/sh
# Diagnostic run on the lent GPU (seventh session): the short-K / small products of the einsum
# instance lm_batch_likelihood_sentence_3_12d on the small kernel and on tiles, two orders.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
S="f64:13200x144x12 f64:13200x12x12x12 f64:1584x1100x11 f64:144x1100x11x11 f64:1728x1100x144 f64:121x1100x144 \
f64:12x12x144x1100 f64:12x1100x11x12 f64:12x144x144x12"
C="small 64,64,8,4,4,wf,1 64,64,8,4,4,wfu,1 64,32,16,4,4,fu,1 32,32,16,4,4,-,1 64,128,16,8,8,fs,1 64,128,16,8,8,fsu,1 \
128,64,8,4,8,fu,1 32,32,8,4,4,-,1 16,16,16,2,2,-,1 64,64,16,4,4,-,1 16,16,8,2,2,-,1 32,32,4,4,4,-,1"
Cr=$(echo $C | tr ' ' '\n' | tac | tr '\n' ' ')
timeout 60 "$G" sweep $S --configs "$C" --budget 6 --total 55 > "$OUT/shortk_a.jsonl" 2>&1
timeout 60 "$G" sweep $S --configs "$Cr" --budget 6 --total 55 > "$OUT/shortk_b.jsonl" 2>&1
cat "$OUT"/shortk_a.jsonl "$OUT"/shortk_b.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \5/' | \
  awk '{ k = $1 " " $2; if (!(k in a)) { a[k] = $3; order[++n] = k } else b[k] = $3; if ($4 != "true") bad[k] = 1 }
       END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s %s %s%s\n", k, a[k] * 1000, b[k] * 1000, (k in bad) ? " WRONG" : "" } }'
