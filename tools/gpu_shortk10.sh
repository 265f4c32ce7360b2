#!/bin/sh
# Tenth session: (1) kF64Huge (128 x 128 8 x 8 `wfsuly`) below its K >= 1024 rule, on products
# with >= 256 of its tiles and K 256-1023 (2160 x 3672 x 360 is a MERA step: 0.337 vs 0.378-0.390
# ms in mera10/); (2) the short-K products with large outputs of str_nw_mera_open_26 (the last
# step 177147 x 243 x 50, run in three chunks of M; 810 x 12474 x 154; 39600 x 252 x 56) on
# tiles with BK 8 and other shapes. Two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
huge="128,128,8,8,8,wfsuly,1 64,128,16,8,8,wfsuy,1 128,64,16,8,8,wfsuy,1"
hs="f64:2160x3672x360 f64:2048x2048x512 f64:4096x4096x256 f64:3000x3000x300 f64:1500x6000x600 f64:4096x2048x768"
for s in $hs; do warm $s "$huge"; done
sweep2 huge "$hs" "$huge" 60
short="64,128,16,8,8,fs,1 64,128,8,8,8,fs,1 64,128,8,8,8,wfsy,1 128,128,8,8,8,wfsy,1 128,128,8,8,8,wfsuly,1 128,64,8,4,8,wfy,1 64,64,8,4,4,wfy,1 64,128,16,8,8,wfsy,1"
ss="f64:59049x243x50 f64:177147x243x50 f64:810x12474x154 f64:13200x252x56"
for s in $ss; do warm $s "$short"; done
sweep2 short "$ss" "$short" 60
summarize2
