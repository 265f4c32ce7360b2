#!/bin/sh
# Diagnostic run on the lent GPU (sixth session, second roll run): f64 tiles with the slice loop
# rolled (q: 4 k steps per iteration) at 4096^3, in two opposite orders; the rolled 128 x 64
# 4 x 8 tile against the wave model's candidates on the einsum shapes and square sizes; a
# per-dispatch GPU profile of the three einsum instances that are slower than a peer.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
R="128,64,8,4,8,fq 128,64,8,4,8,fp 128,64,8,4,8,wfq 128,64,8,4,8,tfq 128,64,8,4,8,fsq 128,64,16,4,8,fq \
128,64,16,4,8,fsq 128,64,16,4,8,wfsq 64,128,8,8,4,fq 64,128,8,8,4,tfq 128,64,8,8,4,fq 128,64,8,8,4,wfq \
128,128,8,8,4,fq 128,128,8,4,8,fq 64,128,8,4,8,fq 64,64,8,4,4,wfq 128,64,8,4,4,fq 128,128,16,8,8,fsq \
64,128,16,4,8,fq 128,64,8,4,8,fxq 64,128,16,8,8,fs"
Rrev=$(echo $R | tr ' ' '\n' | tac | tr '\n' ' ')
timeout 100 "$G" sweep f64_4096 --configs "$R" --budget 90 > "$OUT/roll_a.jsonl" 2>&1
timeout 100 "$G" sweep f64_4096 --configs "$Rrev" --budget 90 > "$OUT/roll_b.jsonl" 2>&1
C="64,128,16,8,8,fs,1 64,64,8,4,4,wf,1 128,64,8,4,8,fq,1 128,64,8,4,8,fq,2 128,64,8,4,8,fq,4 64,128,16,8,8,fs,4 \
128,64,16,8,4,wfs,1 64,32,16,4,4,f,1"
timeout 150 "$G" sweep f64_1024 f64:2048x2048x2048 f64_batched f64:990x2187x4620 f64:7290x399x4320 \
  f64:9720x136x441 f64:399x4320x594 f64:540x58320x136 f64:2160x3672x360 f64:177147x243x50 f64:13200x144x12 \
  f64:480x4620x243 f64:924x1215x360 f64:810x12474x154 f64:243x6561x729x9 --configs "$C" --budget 10 --total 140 \
  > "$OUT/shapes.jsonl" 2>&1
for f in str_nw_mera_closed_120 str_nw_mera_open_26 lm_batch_likelihood_sentence_3_12d; do
  timeout 30 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 1 > /dev/null 2>&1
  timeout 60 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 --path opt_size --repeat 7 --json \
    --profile --steps >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
cd "$OUT" && tar czf roll2.tgz *.jsonl einsum_err.txt && rm -f *.jsonl einsum_err.txt
tar xzf roll2.tgz -O roll_a.jsonl roll_b.jsonl shapes.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\).*/\1 \2 \3 \4/' | \
  awk '{ if ($1 != last) { printf "\n%s:", $1; last = $1 } printf " %s=%s", $2, $3 } END { print "" }'
tar xzf roll2.tgz -O einsum.jsonl | python3 -c '
import sys, json
for l in sys.stdin:
    try: d = json.loads(l)
    except Exception: continue
    print(d["instance"], "%.3f ms" % (d["median_seconds"] * 1e3), d.get("profile_per_run", {}).get("families"))'
