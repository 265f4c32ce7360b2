#!/bin/sh
# Twenty-fifth session, call 6 (carry [".gl", ".gpubench"]): the final code on the H200 after the
# fuzzing fixes (the complex epilogue's real alpha / beta, cast.comp): every gemm test, the op-case
# files that touch them on the Vulkan backend, c64 / c32 1024^3 on the FMA kernels, then a short
# sweep of larger f64 tiles on mera_open's two short-K products.
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*'
for f in fuzz cast dot_general indexing; do
  echo "$f: $(timeout 120 "$B/tenferro" eval tests/cases/$f.json --backend vulkan 2>&1 | tail -1)" >> "$OUT/checks.txt"
done
timeout 60 "$B/tenferro_bench_vk_gemm" c64_1024 c32:1024x1024x1024 --reps 2 > /dev/null 2>&1
timeout 60 "$B/tenferro_bench_vk_gemm" c64_1024 c32:1024x1024x1024 --reps 10 2>&1 | grep ' median ' > "$OUT/complex.txt"
timeout 100 "$B/tenferro_bench_vk_gemm" sweep f64:177147x243x50 f64:12474x810x154 --reps 10 --budget 40 --total 90 \
  --configs "128,128,8,8,8,fsul,1 128,128,16,8,8,fs,1 64,256,8,8,8,fs,1 64,256,16,8,8,fs,1 256,64,8,8,8,fs,1 \
  128,64,16,8,8,fsu,1 64,128,8,8,8,fs,1 64,128,16,8,8,fsr,1 64,64,8,4,4,wfuy,1 64,256,8,4,8,wf,1 \
  128,128,8,4,8,wfu,1 32,256,8,4,8,wf,1" > "$OUT/sweep.jsonl" 2>&1
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== complex"; awk '{print $1, $11, $13, $NF}' "$OUT/complex.txt"
echo "== sweep"; sweep_summary "$OUT/sweep.jsonl"
