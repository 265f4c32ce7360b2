#!/bin/sh
# Eighth session, fifth run: short-K f64 products (K <= 16) with one slice covering K (BK 16)
# against the short-K rule's BK 4 (the diagnostic build showed each slice of such a product
# costing a global-load round trip: 1584 x 1100 x 11 13.8 us, 7.9 without the K loop), and the
# batched tiny products of lm_batch_likelihood_sentence_3_12d (12 x 12 x 144 x 1100, 12 x 144 x
# 144 x 12) on smaller slices / tiles. Two orders each (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
sweep2 shortk "f64:1584x1100x11 f64:13200x144x12 f64:144x1100x11x11 f64:13200x12x12x12 f64:12x1100x11x12 \
f64:144x1728x12 f64:144x1100x11 f64:2048x2048x8 f64:4096x4096x16 f64:196830x45x11" \
"32,32,4,4,4,- 32,32,8,4,4,- 32,32,16,4,4,- 64,32,16,4,4,- 64,64,16,4,4,- 64,64,16,8,8,- 32,32,16,4,4,f" 90
sweep2 batched "f64:12x12x144x1100 f64:12x144x144x12 f64:144x12x144x12 f64:32x32x100x500 f64:20x20x300x300 \
f64:12x12x80x1100" "16,16,16,2,2,- 16,16,8,2,2,- 16,16,4,2,2,- 32,32,16,4,4,- 32,32,8,4,4,- 16,32,8,2,4,-" 60
summarize2
