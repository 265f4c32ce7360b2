#!/bin/sh
# Fourteenth session, second call: (1) vk_gemm_gpu_test's failure on the H200 and the op-case
# files' failures there (the first call kept only the counts); (2) variants of the f32 tile of
# 128 threads with 8 x 16 per thread that the first call found faster (45.5 / 47.4 TFLOP/s at
# 4096^3 / 8192^3 vs 44.1 / 46.1 on 128 x 256) and of the c32 64 x 128 8 x 8 tile.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
T=$B/t
timeout 120 "$T/vk_gemm_gpu_test" > "$OUT/gemm_test.log" 2>&1; echo "gemm test rc=$?" >> "$OUT/gemm_test.log"
for f in "$T"/*.json "$T"/audit/*.json; do
  echo "== $(basename "$f")" >> "$OUT/eval_full.txt"
  timeout 60 "$B/tenferro" eval "$f" --backend all 2>&1 | grep -v '^PASS ' >> "$OUT/eval_full.txt"
done
f32="128,128,8,8,16,fsu 128,256,8,8,16,fsu 128,128,8,8,16,fs 128,128,8,8,16,wfsu 128,128,8,8,16,tfsu 128,128,8,8,16,wfsuy 128,128,8,8,16,fsul 128,128,4,8,16,fsu 128,128,8,8,16,fsux 64,128,8,8,16,fsu 128,64,8,16,8,fsu 128,128,8,16,8,fsu"
c32="64,128,8,8,8,wfu 64,128,8,8,8,wfsu 64,128,8,8,8,wfsuy 64,128,8,8,8,tfsu 64,128,8,8,8,fsu 128,64,8,8,4,wfu 128,64,8,8,4,wfsu 64,128,4,8,8,wfsu"
warm f32_4096 "$f32"; warm f32_8192 "$f32"; warm f32:2048x2048x2048 "$f32"; warm c32_4096 "$c32"
sweep2 f32 "f32_4096 f32_8192 f32:2048x2048x2048" "$f32" 60
sweep2 c32 "c32_4096" "$c32" 30
summarize2
echo "== gemm test"; grep -E "FAILED|Failure|error|Expected|Which is|actual|rc=" "$OUT/gemm_test.log" | head -30
echo "== eval"; grep -v "passed, 0 failed" "$OUT/eval_full.txt" | grep -v "idx_fuzz\|se_window_too_big\|conj_bool_print" | cut -c1-300 | head -60
