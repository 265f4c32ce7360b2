#!/bin/sh
# Eighth session, sixth run: options on the new f32 128 x 256 tile (g: L2-friendly tile order,
# x: unpadded swizzled rows) and larger per-workgroup tiles for c32, f64 and c64, against the
# defaults, in two orders (tools/gpu_sweep2.sh).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
sweep2 f32 "f32_4096 f32_8192" "128,256,8,8,16,fsu 128,256,8,8,16,fsug 128,256,8,8,16,fsux 128,256,8,8,16,fsuxg \
256,128,8,16,8,fsu 128,256,8,8,16,wfsu" 60
sweep2 c32 "c32_4096" "128,128,8,8,4,wfu 128,256,8,8,8,fsu 64,256,8,4,8,fsu 128,128,8,8,4,wfug 128,256,8,8,8,wfsu" 50
sweep2 f64 "f64_4096 f64_batched" "64,128,16,8,8,fsu 64,128,16,8,8,fsug 128,128,8,8,8,fsu 64,128,16,8,8,fsux" 50
sweep2 c64 "c64_2048" "64,64,8,4,8,fu 64,128,8,4,8,fsu 128,64,8,8,4,fsu 64,64,8,4,8,fug" 40
summarize2
