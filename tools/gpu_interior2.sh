#!/bin/sh
# Seventh session, second run: calibration of the interior loop (u) tiles, each list swept in
# two opposite orders (the H200 showed slow periods of several seconds in the first run, so a
# figure counts when both orders agree), then the full benchmark with the peers (gpu_bench.sh).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
rev() { echo "$1" | tr ' ' '\n' | tac | tr '\n' ' '; }
F64="128,64,8,4,8,fq 128,64,8,4,8,fu 64,128,16,8,8,fs 64,128,16,8,8,fsu 64,32,16,4,4,f 64,32,16,4,4,fu 64,64,8,4,4,wf 128,128,8,8,8,fu"
F32="128,128,16,8,8,f 128,128,16,8,8,fu 128,128,16,8,8,fsu 64,128,16,8,8,fu"
W="128,64,8,4,8,fq,4 128,64,8,4,8,fu,4 64,128,16,8,8,fs,1 64,128,16,8,8,fsu,1 64,128,16,8,8,fsu,4 64,64,8,4,4,wf,1 \
64,32,16,4,4,f,1 64,32,16,4,4,fu,1"
MERA="f64:990x2187x4620 f64:7290x399x4320 f64:9720x136x441 f64:399x4320x594 f64:540x58320x136 f64:2160x3672x360 \
f64:177147x243x50 f64:243x6561x729x9"
for o in a b; do
  if [ $o = a ]; then f64=$F64; f32=$F32; w=$W; else f64=$(rev "$F64"); f32=$(rev "$F32"); w=$(rev "$W"); fi
  timeout 60 "$G" sweep f64_4096 f64:1024x1024x1024 --configs "$f64" --budget 25 --total 50 > "$OUT/cal_f64_$o.jsonl" 2>&1
  timeout 60 "$G" sweep f32_4096 f32_8192 --configs "$f32" --budget 25 --total 50 > "$OUT/cal_f32_$o.jsonl" 2>&1
  timeout 90 "$G" sweep $MERA --configs "$w" --budget 10 --total 80 > "$OUT/cal_mera_$o.jsonl" 2>&1
done
cat "$OUT"/cal_*_a.jsonl "$OUT"/cal_*_b.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \5/' | \
  awk '{ k = $1 " " $2; if (!(k in a)) { a[k] = $3; order[++n] = k } else b[k] = $3; if ($4 != "true") bad[k] = 1 }
       END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s %s %s%s\n", k, a[k], b[k], (k in bad) ? " WRONG" : "" } }' \
  > "$OUT/calibration.txt"
sh tools/gpu_bench.sh
echo "== calibration (case config ms-order-a ms-order-b)"
tar xzf "$OUT/results.tgz" -O ./calibration.txt
