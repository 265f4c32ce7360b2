#!/bin/sh
# Ninth session: the wave model's f64 candidates with and without the warp maps (w / t) and
# paired lanes (y), at 4096^3 (the model's rates) and on the MERA products they are chosen for;
# two orders after a compiling pass (warm).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
A="128,64,8,4,8,fu 128,64,8,4,8,wfu 128,64,8,4,8,wfuy 128,64,8,4,8,tfuy 64,128,16,8,8,fsu 64,128,16,8,8,wfsuy"
M4="128,64,8,4,8,fu,4 128,64,8,4,8,wfu,4 128,64,8,4,8,wfuy,4 128,64,8,4,8,tfuy,4 64,128,16,8,8,fsu,4 64,128,16,8,8,wfsuy,4"
N="64,32,16,4,4,fu,1 64,32,16,4,4,wfuy,1 64,64,8,4,4,wf,1 64,64,8,4,4,wfy,1 64,128,16,8,8,fs,1 64,128,16,8,8,wfsy,1"
warm f64_4096 "$A"; warm f64:7290x399x4320 "$M4"; warm f64:990x2187x4620 "$M4"; warm f64:9720x136x441 "$N"
sweep2 big "f64_4096" "$A" 60
sweep2 m4 "f64:7290x399x4320 f64:990x2187x4620" "$M4" 60
sweep2 narrow "f64:9720x136x441 f64:399x4320x594 f64:540x58320x136" "$N" 40
summarize2
