#!/bin/sh
# Tenth session: tiles not swept before for f64 (BK 4 and 16 on the 128 x 128 8 x 8 tile, double
# shared buffer, no lean loop, the transposed warp map, 64 x 256 / 256 x 64), c32 (single shared
# buffer, BK 16, 8 x 8 and 4 x 8 thread tiles) and c64 (BK 4, single buffer, 128 x 64, 64 x 128),
# each against the default, two orders after a compile pass (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
f64="128,128,8,8,8,wfsuly 128,128,4,8,8,wfsuly 128,128,8,8,8,wfuly 128,128,8,8,8,wfsuy 128,128,8,8,8,tfsuly 128,128,16,8,8,wfsuly 64,256,8,8,8,wfsuly 256,64,8,8,8,wfsuly"
c32="128,128,8,8,4,wfu 128,128,8,8,4,wfsu 128,128,8,8,4,wfsuy 128,128,16,8,4,wfu 64,128,16,8,8,wfsu 128,128,8,4,8,wfu 128,64,8,8,4,wfu"
c64="64,64,8,4,8,fu 64,64,4,4,8,fu 64,64,8,4,8,fsu 64,64,8,4,8,wfsuy 128,64,8,4,8,wfuy 64,128,8,4,8,wfuy 64,64,8,4,4,wfuy 32,64,8,4,8,fu"
warm f64_4096 "$f64"; warm c32_4096 "$c32"; warm c64_2048 "$c64"
sweep2 f64 "f64_4096 f64_2048" "$f64" 50
sweep2 c32 "c32_4096" "$c32" 35
sweep2 c64 "c64_2048" "$c64" 30
summarize2
