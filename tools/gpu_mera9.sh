#!/bin/sh
# Ninth session: the two largest MERA products (str_nw_mera_open_26 step 19: 990 x 2187 x 4620;
# mera_closed step 100: 7290 x 399 x 4320) and 2160 x 3672 x 360 on the wave model's choices
# against the 128 x 128 8 x 8 `fsul` tile (kF64Huge), the paired warp map (y) and l, in 1-4
# K splits; two orders after an untimed pass that compiles every pipeline.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
S1="64,128,16,8,8,fsu,4 64,128,16,8,8,wfsuy,4 64,128,16,8,8,fsul,4 128,128,8,8,8,fsul,2 128,128,8,8,8,fsul,4 128,64,8,4,8,fu,4 128,64,8,4,8,wfuy,4"
S2="128,64,8,4,8,fu,4 128,64,8,4,8,wfuy,4 128,64,8,4,8,ful,4 64,128,16,8,8,fsu,4 64,128,16,8,8,wfsuy,4 128,128,8,8,8,fsul,3 128,128,8,8,8,fsul,4"
S3="64,128,16,8,8,fs,1 64,128,16,8,8,wfsy,1 64,128,16,8,8,fsu,1 128,128,8,8,8,fsul,1 128,128,8,8,8,fs,1"
warm f64:990x2187x4620 "$S1"; warm f64:7290x399x4320 "$S2"; warm f64:2160x3672x360 "$S3"
sweep2 m19 "f64:990x2187x4620" "$S1" 40
sweep2 m100 "f64:7290x399x4320" "$S2" 40
sweep2 m3 "f64:2160x3672x360" "$S3" 30
summarize2
