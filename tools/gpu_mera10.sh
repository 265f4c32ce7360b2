#!/bin/sh
# Tenth session: f64 8 x 8 tiles the wave model does not know (128 x 128 `wfsuly` = kF64Huge,
# 128 x 64 and 64 x 64 with 8 x 8 per thread) with K splits, on the MERA products that take the
# most GPU time (7290 x 399 x 4320: 1.6 ms in 4 splits on 128 x 64 4 x 8; 990 x 2187 x 4620:
# 1.12 ms) and the other large MERA shapes, against the defaults; full-wave rates at 4096^3.
# Two orders after a compile pass (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
cfg="128,64,16,8,8,wfsuy,1 128,64,16,8,8,wfsuy,2 128,64,16,8,8,wfsuy,3 128,64,16,8,8,wfsuy,4 128,64,16,8,8,wfsuy,5
64,64,16,8,8,wfsuy,1 64,64,16,8,8,wfsuy,2 64,64,16,8,8,wfsuy,3
128,128,8,8,8,wfsuly,1 128,128,8,8,8,wfsuly,2 128,128,8,8,8,wfsuly,3 128,128,8,8,8,wfsuly,4
64,128,16,8,8,wfsuy,2 64,128,16,8,8,wfsuy,3 64,128,16,8,8,wfsuy,4 128,64,8,4,8,wfuy,3 128,64,8,4,8,wfuy,5"
cfg=$(echo $cfg)
for s in f64:7290x399x4320 f64:990x2187x4620; do warm $s "$cfg"; done
sweep2 c7290 f64:7290x399x4320 "$cfg" 40
sweep2 c990 f64:990x2187x4620 "$cfg" 40
small="128,64,16,8,8,wfsuy,1 128,64,16,8,8,wfsuy,2 64,64,16,8,8,wfsuy,1 64,64,16,8,8,wfsuy,2 128,128,8,8,8,wfsuly,1"
for s in f64:540x58320x136 f64:2160x3672x360 f64:399x4320x594 f64:9720x136x441; do warm $s "$small"; done
sweep2 other "f64:540x58320x136 f64:2160x3672x360 f64:399x4320x594 f64:9720x136x441" "$small" 40
warm f64_4096 "128,64,16,8,8,wfsuy 64,64,16,8,8,wfsuy"
sweep2 rate f64_4096 "128,64,16,8,8,wfsuy 64,64,16,8,8,wfsuy" 30
summarize2
