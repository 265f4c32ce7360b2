#!/bin/sh
# Fourteenth session, last call (what device time was left): f64 / c64 tiles of 128 threads with
# the paired warp map, as the f32 / c32 ones that gained this session (two workgroups or more per
# SM), against the defaults; one compile pass, then two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
f64="64,64,8,4,8,wfuy 64,64,16,4,8,wfsuy 64,64,8,8,4,wfuy 128,32,8,8,4,wfuy 32,128,8,4,8,wfuy 64,128,8,8,8,wfsuy"
c64="64,64,8,4,8,wfuy 64,64,8,4,8,wfsuy 32,128,8,4,8,wfuy"
warm f64_4096 "$f64"; warm f64_batched "$f64"; warm c64_2048 "$c64"
sweep2 f64 "f64_4096 f64_batched" "$f64" 22
sweep2 c64 "c64_2048" "$c64" 12
summarize2
