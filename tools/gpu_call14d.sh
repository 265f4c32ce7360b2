#!/bin/sh
# Fourteenth session, fourth call: the shader fixes on the H200's driver (f32 division correctly
# rounded, products of exp(|y| / 2) twice without NVIDIA's reassociation, the GEMM choice test),
# the range probe again (tools/probe_range.py, now with f64 / c64), then variants of the new
# f32 (128 x 128, 16 x 8 per thread) and c32 (64 x 128, 8 x 8, paired) tiles.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
. tools/gpu_checks.sh
run_checks
f32="128,128,8,16,8,fsu 128,128,16,16,8,fsu 128,128,8,16,8,fsul 128,128,8,16,8,wfsu 128,128,8,16,8,tfsu 128,256,8,16,8,fsu 256,128,8,16,8,fsu 128,128,8,16,8,fsxu"
c32="64,128,8,8,8,wfsuy 64,128,8,8,8,wfsuyl 128,64,8,8,8,wfsuy 64,128,16,8,8,wfsuy 128,128,8,8,8,wfsuy"
warm f32_4096 "$f32"; warm f32_8192 "$f32"; warm c32_4096 "$c32"
sweep2 f32 "f32_4096 f32_8192" "$f32" 45
sweep2 c32 "c32_4096" "$c32" 30
summarize2
echo "== checks"; cut -c1-700 "$OUT/checks.txt"
