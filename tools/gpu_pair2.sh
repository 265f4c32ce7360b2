#!/bin/sh
# Ninth session: the paired warp map (w + y) on the f32 / c32 / c64 mid and medium tiles (4 x 4,
# 4 x 8), and f64 512^3 tiles; in-stream sweeps, two orders after a compiling pass (warm).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
warm f32_512 "64,32,16,4,4,f 64,32,16,4,4,wfy"
warm f32_1024 "64,128,16,4,8,wf 64,128,16,4,8,wfy"
warm f32:300x300x300 "64,64,16,4,4,-,7 64,64,16,4,4,wy,7"
warm c64:1024x1024x1024 "64,64,8,4,4,fu 64,64,8,4,4,wfuy"
warm f64_512 "64,32,16,4,4,wfuy 32,32,16,4,4,wfuy 64,64,16,4,4,wfuy,2 32,64,16,4,4,wfuy 64,32,8,4,4,wfuy 64,32,16,4,4,wfuy,2"
sweep2 f32a "f32_512" "64,32,16,4,4,f 64,32,16,4,4,wfy" 15
sweep2 f32b "f32_1024 f32:1000x1000x100" "64,128,16,4,8,wf 64,128,16,4,8,wfy" 20
sweep2 f32c "f32:300x300x300" "64,64,16,4,4,-,7 64,64,16,4,4,wy,7" 15
sweep2 c64 "c64:1024x1024x1024 c64:1000x1000x100" "64,64,8,4,4,fu 64,64,8,4,4,wfuy" 20
sweep2 f64 "f64_512" "64,32,16,4,4,wfuy 32,32,16,4,4,wfuy 64,64,16,4,4,wfuy,2 32,64,16,4,4,wfuy 64,32,8,4,4,wfuy 64,32,16,4,4,wfuy,2" 20
summarize2
