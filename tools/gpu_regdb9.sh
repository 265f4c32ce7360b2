#!/bin/sh
# Ninth session: register double buffering of the fragments (r) on the large tiles whose
# registers the lean loop (l) or few load slots leave room for; two orders after warm.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
F="128,128,8,8,8,wfsuly 128,128,8,8,8,wfsulyr 128,128,8,8,8,fsulr 64,128,16,8,8,wfsulyr"
S="128,256,8,8,16,fsu 128,256,8,8,16,fsur"
C="128,128,8,8,4,wfu 128,128,8,8,4,wfur"
warm f64_4096 "$F"; warm f32_4096 "$S"; warm c32_4096 "$C"
sweep2 f64 "f64_4096" "$F" 40
sweep2 f32 "f32_4096" "$S" 20
sweep2 c32 "c32_4096" "$C" 20
summarize2
