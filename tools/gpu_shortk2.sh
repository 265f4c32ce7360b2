#!/bin/sh
# Seventh session, last diagnostic: f64 products with K <= 16 on the new default (32 x 32 BK 4)
# against the tiles the classes / wave model chose before, sweeps in two orders; larger
# short-K outputs than lm_3_12d has; then the einsum instances with short-K products.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
S="f64:144x1100x11 f64:144x1100x11x11 f64:13200x144x12 f64:13200x12x12x12 f64:1584x1100x11 f64:12x1100x11x12 \
f64:4096x4096x16 f64:2048x2048x8 f64:1000x1000x4 f64:196830x45x11"
C="32,32,4,4,4,-,1 64,128,16,8,8,fs,1 64,64,8,4,4,wf,1 128,32,16,8,4,-,1 64,64,16,4,4,-,1"
Cr=$(echo $C | tr ' ' '\n' | tac | tr '\n' ' ')
timeout 60 "$G" sweep $S --configs "$C" --budget 5 --total 55 > "$OUT/shortk2_a.jsonl" 2>&1
timeout 60 "$G" sweep $S --configs "$Cr" --budget 5 --total 55 > "$OUT/shortk2_b.jsonl" 2>&1
: > "$OUT/einsum.jsonl"
for f in lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_brackets_4_4d lm_batch_likelihood_sentence_4_4d str_nw_mera_open_26; do
  timeout 30 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 1 > /dev/null 2>&1
  timeout 60 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 7 --json \
    --check --profile >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
cat "$OUT"/shortk2_a.jsonl "$OUT"/shortk2_b.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \5/' | \
  awk '{ k = $1 " " $2; if (!(k in a)) { a[k] = $3; order[++n] = k } else b[k] = $3; if ($4 != "true") bad[k] = 1 }
       END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s %s %s%s\n", k, a[k] * 1000, b[k] * 1000, (k in bad) ? " WRONG" : "" } }'
python3 -c '
import json, sys
for l in open(sys.argv[1]):
    d = json.loads(l); p = d.get("profile_per_run", {}).get("families", {})
    print(d["instance"], "%.3f ms" % (d["median_seconds"] * 1e3), d["check"]["ok"], {k: round(v["gpu_us"]) for k, v in p.items()})
' "$OUT/einsum.jsonl"
