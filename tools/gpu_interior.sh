#!/bin/sh
# Diagnostic run on the lent GPU (seventh session): the interior-tile loop (option u) against the
# current tiles on the issue-5 cases and mid sizes of every dtype, the f64 wave-model candidates
# with and without u on the MERA product shapes, and the register counts of the u tiles (a
# separate process with pipeline statistics on: its timings are not used).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
F32="128,128,16,8,8,f 128,128,16,8,8,fu 128,128,16,8,8,wfu 128,128,16,8,8,tfu 128,128,8,8,8,fu 128,128,16,8,8,fgu \
128,128,16,8,8,fxu 128,128,32,8,8,fsu 64,128,16,4,8,wfu 64,128,16,8,8,fu 128,64,16,8,4,fu 128,128,16,8,8,fqu \
128,128,16,8,8,fsu 64,32,16,4,4,fu 64,128,16,4,8,wf"
F64="128,64,8,4,8,fq 128,64,8,4,8,fu 128,64,8,4,8,fqu 128,64,8,4,8,wfu 128,64,8,4,8,tfu 64,128,8,8,8,fu \
64,128,16,8,8,fsu 64,128,16,8,8,fs 128,64,8,8,4,fu 128,128,8,8,8,fu 64,64,8,4,4,fu 64,64,8,4,4,wfu 64,64,16,4,4,fu \
128,64,16,4,8,fsu 64,32,16,4,4,fu 128,64,8,4,8,fgu 128,64,16,4,8,fxu"
C32="128,128,8,8,4,wf 128,128,8,8,4,wfu 128,128,8,4,8,fu 128,128,8,4,8,wfu 128,64,8,4,4,fu 64,128,8,8,4,fu \
128,128,16,8,4,wfsu 128,64,8,8,4,wfu 64,64,8,4,4,fu 128,128,8,8,4,tfu"
C64="64,32,8,4,4,- 64,64,8,4,8,f 64,64,8,4,8,fu 64,32,8,4,4,fu 64,64,8,4,4,fu 32,64,8,4,4,fu 64,64,8,8,4,fu \
64,64,8,4,8,wfu 64,64,16,4,8,fsu 128,64,8,8,4,fu 64,128,8,4,8,fu 64,64,4,4,8,fu 64,64,8,8,8,fu"
timeout 150 "$G" sweep f32_4096 f32_8192 f32:2048x2048x2048 f32:1024x1024x1024 --configs "$F32" --budget 40 --total 140 > "$OUT/f32.jsonl" 2>&1
timeout 150 "$G" sweep f64_4096 f64_batched f64:2048x2048x2048 f64:1024x1024x1024 --configs "$F64" --budget 40 --total 140 > "$OUT/f64.jsonl" 2>&1
timeout 100 "$G" sweep c32_4096 c32:2048x2048x2048 --configs "$C32" --budget 45 --total 90 > "$OUT/c32.jsonl" 2>&1
timeout 100 "$G" sweep c64_2048 c64:1024x1024x1024 c64:4096x4096x4096 --configs "$C64" --budget 30 --total 90 > "$OUT/c64.jsonl" 2>&1
W="64,128,16,8,8,fs,1 64,128,16,8,8,fsu,1 64,64,8,4,4,wf,1 64,64,8,4,4,wfu,1 64,32,16,4,4,f,1 64,32,16,4,4,fu,1 \
128,64,8,4,8,fq,1 128,64,8,4,8,fqu,1 128,64,8,4,8,fu,1 64,128,8,8,8,fu,1 128,64,8,4,8,fu,2 128,64,8,4,8,fu,4 \
64,128,16,8,8,fsu,2 64,128,16,8,8,fsu,4 128,64,8,4,8,fqu,4 128,64,8,4,8,fq,4"
timeout 150 "$G" sweep f64:990x2187x4620 f64:7290x399x4320 f64:9720x136x441 f64:399x4320x594 f64:540x58320x136 \
  f64:2160x3672x360 f64:177147x243x50 f64:243x6561x729x9 --configs "$W" --budget 16 --total 140 > "$OUT/waves.jsonl" 2>&1
for d in f32 f64 c32 c64; do
  eval cf=\$$(echo $d | tr a-z A-Z)
  TENFERRO_VK_PIPELINE_STATS=1 timeout 60 "$G" sweep $d:256x256x256 --configs "$cf" --reps 1 --budget 50 > "$OUT/stats_$d.txt" 2>&1
done
cd "$OUT" && tar czf interior.tgz *.jsonl stats_*.txt && rm -f *.jsonl stats_*.txt
tar xzf interior.tgz -O f32.jsonl f64.jsonl c32.jsonl c64.jsonl waves.jsonl | grep '"config"' | \
  sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \4 \5/' | \
  awk '{ if ($1 != last) { printf "\n%s:", $1; last = $1 } printf " %s=%s%s", $2, $3, ($5 == "true" ? "" : "!") } END { print "" }'
