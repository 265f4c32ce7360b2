#!/bin/sh
# Tenth session, first call: is f32 4096^3 / 8192^3 slower since the prologue's 64-bit division
# change (2d81afb)? The build of 8056eb3 (.gpubench/old_bench_vk_gemm) against HEAD, alternating,
# on the f32 default tile; then f64 1024^3 with K splits (the single-wave tile question).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > "$OUT/clocks0.txt" 2>&1
cfg="128,256,8,8,16,fsu"
for v in old new; do
  g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
  timeout 60 "$g" sweep f32_4096 f32_8192 --configs "$cfg" --reps 2 --budget 20 --total 20 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in old new; do
    g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
    timeout 60 "$g" sweep f32_4096 f32_8192 --configs "$cfg" --reps 15 --budget 20 --total 20 2>&1 \
      | grep '"config"' | sed "s/^/$v $r /" >> "$OUT/f32ab.txt"
  done
done
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > "$OUT/clocks1.txt" 2>&1
c1024="128,64,8,4,8,wfuy,0 128,64,8,4,8,wfuy,2 128,64,8,4,8,wfuy,4 64,128,16,8,8,wfsuy,2 64,128,16,8,8,wfsuy,0 64,64,8,4,4,wfuy,2 128,128,8,8,8,wfsuly,2"
warm f64:1024x1024x1024 "$c1024"
sweep2 f64_1024 f64:1024x1024x1024 "$c1024" 12
echo "== f32 A/B: old (8056eb3) / new (HEAD), ms per case, round"
sed 's/^\([a-z]*\) \([0-9]\).*"case":"\([^"]*\)".*"median_ms":\([^,]*\),.*"tflops":\([^,]*\),.*/\3 \1 \2 \4 \5/' "$OUT/f32ab.txt" | sort -s -k1,1
cat "$OUT/clocks0.txt" "$OUT/clocks1.txt"
summarize2
