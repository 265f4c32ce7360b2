#!/bin/sh
# Tenth session: option b (TFG_SCHED_BOTTOM: the interior loop loads the next slice at the bottom
# of an iteration, after the stores and the barrier, so that the driver cannot sink the loads to
# their stores) against the same tiles without b; and the build before b (old, 9f7f347) on the
# defaults (the shader's other paths must not have moved). Two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
O="$B/old_bench_vk_gemm"
f32="128,256,8,8,16,fsu 128,256,8,8,16,fsub 128,128,16,8,8,fsu 128,128,16,8,8,fsub"
f64="128,128,8,8,8,wfsuly 128,128,8,8,8,wfsulyb 64,128,16,8,8,wfsuy 64,128,16,8,8,wfsuyb 64,128,16,8,8,wfsulyb"
c32="128,128,8,8,4,wfu 128,128,8,8,4,wfub"
c64="64,64,8,4,8,fu 64,64,8,4,8,fub 64,64,8,4,8,ful 64,64,8,4,8,fulb"
warm f32_4096 "$f32"; warm f64_4096 "$f64"; warm c32_4096 "$c32"; warm c64_2048 "$c64"
timeout 60 "$O" f32_4096 f64_4096 --reps 2 > /dev/null 2>&1
sweep2 f32 "f32_4096 f32_8192" "$f32" 50
sweep2 f64 "f64_4096 f64_batched" "$f64" 45
sweep2 c32 "c32_4096" "$c32" 20
sweep2 c64 "c64_2048" "$c64" 20
for r in 1 2; do
  for v in old new; do
    g="$G"; [ $v = old ] && g="$O"
    timeout 60 "$g" f32_4096 f64_4096 c32_4096 c64_2048 f64_batched --reps 7 2>&1 | grep -E '^(f32|f64|c32|c64)_.*median' | sed "s/^/$v $r /" >> "$OUT/defaults_ab.txt"
  done
done
summarize2
echo "== defaults, old (9f7f347) / new: variant round case ... median"
sort -s -k3,3 "$OUT/defaults_ab.txt" | awk '{print $1, $2, $3, $10, $12, $14}'
