#!/bin/sh
# Ninth session: `e` (the lean loop's middle fragment read depends on the slice's global loads,
# so the driver issues them early) and BK 8 / 16 for the f64 8 x 8 tiles with `l`; the machine
# code of 64 x 128 `wfsulye` (where its LDG.128 land, spills); in-stream sweeps, two orders.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
export PATH=$PATH:/usr/local/cuda/bin
d=/tmp/glc_e; rm -rf "$d"; mkdir -p "$d" "$OUT/sass"
__GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
  "$G" sweep f64_4096 --configs "64,128,16,8,8,wfsulye" --reps 3 --budget 5 --total 5 > /dev/null 2>&1
mkdir -p /tmp/codes && cp "$d"/GLCache/*/*/*.bin /tmp/codes/ 2>/dev/null; tar czf "$OUT/sass/glc_e.tgz" -C /tmp/codes .
F="64,128,16,8,8,wfsuy 64,128,16,8,8,wfsuly 64,128,16,8,8,wfsulye 64,128,8,8,8,wfsuly 64,128,8,8,8,wfsulye 128,128,8,8,8,wfsuly 128,128,8,8,8,wfsulye 128,128,16,8,8,wfsulye"
S="128,256,8,8,16,fsu 128,256,8,8,16,fsul 128,256,8,8,16,fsule"
warm f64_4096 "$F"; warm f32_4096 "$S"
sweep2 f64 "f64_4096 f64_batched" "$F" 60
sweep2 f32 "f32_4096" "$S" 30
summarize2
