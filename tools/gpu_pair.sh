#!/bin/sh
# Ninth session: paired warp maps (y, TFG_SCHED_PAIR: lanes n, n^1 read the same A words and
# n, n^2 the same B words, so that an LDS.128 returns in 2 passes instead of 4) against the
# defaults and the plain warp maps, two orders after one untimed pass that compiles every
# pipeline (warm, tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
F64="64,128,16,8,8,fsu 64,128,16,8,8,wfsu 64,128,16,8,8,wfsuy 64,128,16,8,8,tfsuy 64,128,16,8,8,wfsuly 128,128,8,8,8,wfsuly 128,128,8,8,8,fsul"
F32="128,256,8,8,16,fsu 128,256,8,8,16,wfsu 128,256,8,8,16,wfsuy 128,256,8,8,16,tfsuy"
C32="128,128,8,8,4,wfu 128,128,8,8,4,wfuy 128,128,8,8,4,tfuy"
C64="64,64,8,4,8,fu 64,64,8,4,8,wfuy 64,64,8,4,8,tfuy"
warm f64_4096 "$F64"; warm f32_4096 "$F32"; warm c32_4096 "$C32"; warm c64_2048 "$C64"
sweep2 f64 "f64_4096 f64_batched" "$F64" 70
sweep2 f32 "f32_4096 f32_8192" "$F32" 50
sweep2 c32 "c32_4096" "$C32" 30
sweep2 c64 "c64_2048" "$C64" 25
summarize2
