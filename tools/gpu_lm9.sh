#!/bin/sh
# Ninth session: the larger products of lm_batch_likelihood_sentence_3_12d (1728 x 1100 x 144:
# 60 us of its 518 us of GEMM, twice; 121 x 1100 x 144; 12 x 12 x 144 x 1100) on their
# defaults and neighbours with the paired warp map; in-stream sweeps, two orders after warm.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
A="64,128,16,8,8,fs,1 64,128,16,8,8,wfsy,1 64,64,16,4,4,wfy,1 64,64,8,4,4,wfy,1 128,64,8,4,8,wfy,1 64,32,16,4,4,wfy,1 128,128,8,8,8,wfsy,1 64,128,16,8,8,fs,2 64,64,16,4,4,wfy,2"
C="64,32,16,4,4,wfy,0 32,32,16,4,4,wy,0 32,32,8,4,4,wy,0 64,64,16,4,4,wfy,0 32,64,16,4,4,wfy,0 64,32,16,4,4,wfy,2"
D="16,16,8,2,2,wy,0 16,16,16,2,2,wy,0 16,16,8,2,2,-,0 small 32,32,8,4,4,wy,0"
warm f64:1728x1100x144 "$A"; warm f64:121x1100x144 "$C"; warm f64:12x12x144x1100 "$D"
sweep2 a "f64:1728x1100x144" "$A" 40
sweep2 c "f64:121x1100x144" "$C" 25
sweep2 d "f64:12x12x144x1100" "$D" 25
summarize2
