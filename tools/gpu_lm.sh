#!/bin/sh
# Eighth session, second run: f32 tile shapes with fewer barriers or more outputs per thread,
# the GEMMs of lm_batch_likelihood_sentence_3_12d (the few-tile long-K 144 x 1100 x 1728 and
# its neighbours, the tiny short-K products: per-call time inside a stream) against their
# current defaults. Every list is swept in two opposite orders (the H200 has slow periods of
# several seconds; a figure counts when both orders agree). No peers.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
sweep2 f32 "f32_4096 f32_8192" "128,128,16,8,8,fsu 128,128,32,8,8,fsu 128,256,16,8,16,fsu 256,128,16,16,8,fsu \
128,256,8,8,16,fu 128,128,16,8,8,fu 128,128,8,8,8,fu" 50
sweep2 long "f64:144x1100x1728" "64,64,16,4,4,-,0 64,64,16,4,4,fu,0 64,64,16,4,4,fu,4 64,64,16,4,4,fu,6 \
64,64,16,4,4,fu,12 64,64,8,4,4,wfu,0 64,64,8,4,4,wfu,6 64,32,16,4,4,fu,0 64,32,16,4,4,fu,4 64,32,16,4,4,fu,8 \
32,64,16,4,4,fu,0 32,32,16,4,4,fu,0 32,32,16,4,4,fu,4 128,64,8,4,8,fu,0 128,64,8,4,8,fu,6 64,128,16,8,8,fsu,0 \
64,128,16,8,8,fsu,12" 40
sweep2 mid "f64:144x1100x121 f64:121x1100x144" "64,64,16,4,4,- 64,64,16,4,4,fu 64,64,8,4,4,wf 64,32,16,4,4,fu \
32,64,16,4,4,fu 32,32,8,4,4,fu 32,32,16,4,4,- 64,64,16,4,4,fu,2 64,32,16,4,4,fu,2" 40
sweep2 tiny "f64:1x1x1 f64:12x144x12 f64:144x144x12 f64:12x12x12x1100 f64:1x1x11x1100 f64:12x144x144x12" \
"small 32,32,4,4,4,- 32,32,4,4,4,n 16,16,4,2,2,- 32,32,16,4,4,- 32,32,16,4,4,q" 60
grep -h "host CPU" "$OUT"/tiny_a.jsonl | sort -u > "$OUT/host_cpu.txt"
summarize2
echo "== host CPU per call (order a)"; cat "$OUT/host_cpu.txt"
