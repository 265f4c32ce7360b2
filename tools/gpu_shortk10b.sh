#!/bin/sh
# Tenth session: f64 products with 16 < K <= 160 on which the wave model takes the 64 x 128 8 x 8
# tile (`fs`): against 64 x 64 4 x 4 (`wfy`, BK 8 and 16) and 64 x 32 4 x 4 `wfuy`, by the
# number of 64 x 128 tiles (under two waves: 1728 x 1100 x 144 of lm_3_12d, 13200 x 252 x 56 a
# chunk of a mera_open step; above: controls). Two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
cfg="64,128,16,8,8,fs,1 64,64,8,4,4,wfy,1 64,64,16,4,4,wfy,1 64,32,16,4,4,wfuy,1"
ss="f64:1728x1100x144 f64:13200x252x56 f64:2000x1000x64 f64:1500x1500x150 f64:3000x800x128 f64:4000x1000x32 f64:6000x1000x100 f64:39600x252x56 f64:2500x2500x160"
for s in $ss; do warm $s "$cfg"; done
sweep2 sk "$ss" "$cfg" 80
summarize2
