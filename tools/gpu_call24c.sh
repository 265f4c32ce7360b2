#!/bin/sh
# Twenty-fourth session, call 3 (carry [".gl", ".gpubench"]): certified f32 products on 7 moduli
# (and c32 on 7, was 8). GemmOzaki* and the parameter tests on the H200; the build before
# ($B/old_bench_vk_gemm, 620b554) against this one on the defaults (three alternating rounds of
# 7); this build with the scheme forced (--ozaki-skip 7:0:c: where the time model does not take
# it); and old / new with f64's passes skipped in turn (14:1 scan, scale and split; 14:4
# combine; 14:8 split alone; the normwise product) to find the 0-2 % f64 4096^3 lost in calls
# 1-2.
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
gtest_check vk_ozaki_params_test '*'
ab_gemm "f64_4096 c64_2048 c32_4096 f32_4096 f32_8192 c32:2048x2048x2048" 3
for r in 1 2; do
  timeout 90 "$B/tenferro_bench_vk_gemm" f32_4096 f32_2048 c32:2048x2048x2048 --reps 7 --ozaki-skip 7:0:c 2>&1 |
    grep ' median ' | sed "s/^/forced $r /" >> "$OUT/forced.txt"
done
for r in 1 2; do
  for s in 0 1 4 8; do
    for v in old new; do
      timeout 60 "$(ab_bin $v)" f64_4096 --reps 7 --ozaki-skip "14:$s" 2>&1 | grep ' median ' |
        sed "s/^/$v 14:$s /" >> "$OUT/skip.txt"
    done
  done
done
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== A/B (build round case ms TFLOP/s check)"; ab_gemm_table
echo "== forced"; sort -s -k3,3 "$OUT/forced.txt" | awk '{print $1, $2, $3, $12, $14, $NF}'
echo "== f64 passes skipped (build skip case ms)"; sort -s -k2,2 "$OUT/skip.txt" | awk '{print $1, $2, $3, $12}'
