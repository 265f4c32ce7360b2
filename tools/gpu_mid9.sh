#!/bin/sh
# Ninth session: f64 mid-class products (under two waves of large tiles) on the mid ladder's
# tiles with the paired warp map: 128 x 64 4 x 8 against 4 x 4 tiles of 64 x 64 and 64 x 32;
# in-stream sweeps, two orders after a compiling pass (warm).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
C="128,64,8,4,8,wfuy 64,64,16,4,4,wfuy 64,64,8,4,4,wfuy 64,32,16,4,4,wfuy 64,128,16,8,8,wfsuy"
warm f64_1024 "$C"; warm f64:1024x2048x1024 "$C"; warm f64:768x768x768 "$C"; warm f64:1536x1536x1536 "$C"
sweep2 mid "f64_1024 f64:1024x2048x1024 f64:768x768x768 f64:1536x1536x1536" "$C" 40
summarize2
