#!/bin/sh
# Eighth session, first run: B kept n-major in shared memory (option k, TFG_SCHED_BKV) against
# the current defaults, each list swept in two opposite orders (a figure counts when both orders
# agree); no peers (the full benchmark with the peers is tools/gpu_bench.sh).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
rev() { echo "$1" | tr ' ' '\n' | tac | tr '\n' ' '; }
F32="128,128,16,8,8,fsu 128,128,16,8,8,fsuk 128,128,16,8,8,fuk 128,128,16,8,8,fsuxk 128,128,32,8,8,fsuk 128,128,16,8,8,wfsuk"
F64="64,128,16,8,8,fsu 64,128,16,8,8,fsuk 128,64,8,4,8,fu 128,64,8,4,8,fuk 64,128,8,8,8,fuk 64,128,16,8,8,fsuxk 128,64,16,4,8,fsuk"
C32="128,128,8,8,4,wfu 128,128,8,8,4,wfuk 128,128,8,8,4,fuk 128,128,16,8,4,wfsuk"
C64="64,64,8,4,8,fu 64,64,8,4,8,fuk 64,64,16,4,8,fsuk"
W="128,64,8,4,8,fu,4 128,64,8,4,8,fuk,4 64,128,16,8,8,fs,1 64,128,16,8,8,fsk,1 64,128,16,8,8,fsu,1 64,128,16,8,8,fsuk,1 \
64,64,8,4,4,wf,1 64,64,8,4,4,wfk,1 64,32,16,4,4,fu,1 64,32,16,4,4,fuk,1"
MERA="f64:990x2187x4620 f64:7290x399x4320 f64:399x4320x594 f64:540x58320x136 f64:2160x3672x360 f64:243x6561x729x9"
for o in a b; do
  if [ $o = a ]; then f32=$F32; f64=$F64; c32=$C32; c64=$C64; w=$W; else
    f32=$(rev "$F32"); f64=$(rev "$F64"); c32=$(rev "$C32"); c64=$(rev "$C64"); w=$(rev "$W"); fi
  timeout 70 "$G" sweep f32_4096 f32_8192 --configs "$f32" --reps 15 --budget 25 --total 60 > "$OUT/bkv_f32_$o.jsonl" 2>&1
  timeout 70 "$G" sweep f64_4096 f64_batched f64:1024x1024x1024 --configs "$f64" --reps 15 --budget 20 --total 60 > "$OUT/bkv_f64_$o.jsonl" 2>&1
  timeout 40 "$G" sweep c32_4096 --configs "$c32" --reps 15 --budget 25 --total 30 > "$OUT/bkv_c32_$o.jsonl" 2>&1
  timeout 30 "$G" sweep c64_2048 --configs "$c64" --reps 15 --budget 25 --total 20 > "$OUT/bkv_c64_$o.jsonl" 2>&1
  timeout 70 "$G" sweep $MERA --configs "$w" --budget 10 --total 60 > "$OUT/bkv_mera_$o.jsonl" 2>&1
done
cat "$OUT"/bkv_*_a.jsonl "$OUT"/bkv_*_b.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \4 \5/' | \
  awk '{ k = $1 " " $2; if (!(k in a)) { a[k] = $3 " " $4; order[++n] = k } else b[k] = $3 " " $4; if ($5 != "true") bad[k] = 1 }
       END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s %s | %s%s\n", k, a[k], b[k], (k in bad) ? " WRONG" : "" } }' \
  > "$OUT/bkv.txt"
echo "== case config ms tflops (order a) | ms tflops (order b)"
cat "$OUT/bkv.txt"
