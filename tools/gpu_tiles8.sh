#!/bin/sh
# Eighth session, third run: f32 / c32 tiles with 8 x 16 and 8 x 8 outputs per thread, and the
# f64 medium-class products of few tiles (lm_batch_likelihood_sentence_3_12d's 144 x 1100 x 121
# and 121 x 1100 x 144, the split 144 x 1100 x 1728, others under one wave of 64 x 64 tiles),
# timed inside a stream (products under 2 GFLOP). Every list in two opposite orders.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
sweep2 f32 "f32_4096 f32_8192" "128,128,16,8,8,fsu 128,256,8,8,16,fu 128,256,8,8,16,wfu 128,256,8,8,16,fsu \
256,128,8,16,8,fu 128,256,8,8,16,tfu 256,256,8,16,16,fsu" 50
sweep2 c32 "c32_4096" "128,128,8,8,4,wfu 128,128,8,8,8,fu 128,128,8,8,8,wfu 128,256,8,8,8,fu 64,256,8,4,8,fu" 40
sweep2 long "f64:144x1100x1728" "64,64,16,4,4,-,0 64,64,8,4,4,wfu,0 64,64,8,4,4,wfu,9 64,64,16,4,4,fu,9 \
64,128,16,8,8,fsu,6 64,128,16,8,8,fsu,9 64,32,16,4,4,fu,4 64,32,16,4,4,fu,8 32,32,16,4,4,fu,4 32,32,16,4,4,fu,8" 40
sweep2 medium "f64:144x1100x121 f64:121x1100x144 f64:300x1500x64 f64:250x800x256 f64:100x3000x200 f64:1000x400x100" \
"64,64,16,4,4,-,0 64,32,16,4,4,fu,0 64,32,16,4,4,f,0 32,64,16,4,4,fu,0 32,32,16,4,4,- 64,64,8,4,4,wfu,0" 60
summarize2
