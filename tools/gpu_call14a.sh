#!/bin/sh
# Fourteenth session, first call: (1) the f32 pow test and the op-case files (tests/cases and
# the thirteenth session's audit cases, staged in .gpubench/t) on the H200's driver; (2) f32 and
# c32 tiles of 128 threads with 8 x 16 (f32) / 8 x 8 (c32) outputs per thread, two workgroups per
# SM (never swept: the f32 128 x 256 8 x 16 tile has 256 threads, one workgroup per SM, so every
# slice's barrier stalls the whole SM), against the defaults, two orders after a compile pass.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
T=$B/t
timeout 120 "$T/vk_analytic_accuracy_test" --gtest_filter='*Pow*' > "$OUT/pow_test.txt" 2>&1; echo "pow test rc=$?" >> "$OUT/pow_test.txt"
for f in "$T"/*.json "$T"/audit/*.json; do
  r=$(timeout 60 "$B/tenferro" eval "$f" --backend all 2> "$OUT/eval_$(basename "$f").err" | tail -1)
  echo "$(basename "$f") $r" >> "$OUT/eval.txt"
done
f32="128,256,8,8,16,fsu 128,128,8,8,16,fsu 128,128,8,8,16,fu 128,128,16,8,16,fu 128,128,16,8,16,fsu 128,128,8,8,16,wfu 128,128,8,8,16,wfuy 128,128,8,16,8,fu 64,256,8,8,16,fu 256,64,8,16,8,fu"
c32="128,128,8,8,4,wfu 128,64,8,8,4,wfu 64,128,8,8,8,fu 128,64,8,8,8,fu 64,128,8,8,8,wfu 128,64,8,8,8,wfsu 64,64,8,8,4,fu 128,128,8,8,8,fu"
warm f32_4096 "$f32"; warm f32_8192 "$f32"; warm c32_4096 "$c32"
sweep2 f32 "f32_4096 f32_8192" "$f32" 45
sweep2 c32 "c32_4096" "$c32" 30
timeout 100 "$T/vk_gemm_gpu_test" > "$OUT/gemm_test.txt" 2>&1; echo "gemm test rc=$?" >> "$OUT/gemm_test.txt"
summarize2
echo "== pow"; tail -4 "$OUT/pow_test.txt"
echo "== gemm test"; tail -3 "$OUT/gemm_test.txt"
echo "== eval"; cat "$OUT/eval.txt"
