#!/bin/sh
# Twenty-third session, call 6 (call 5 was refused) (carry [".gl", ".gpubench"]):
# 1. vk_ozaki_params_test and GemmOzaki* on the H200;
# 2. A's residues carrying the CRT's inverses (the combine takes the residue products as its
#    y_l, no modular product per output and modulus): the build before ($B/old_bench_vk_gemm),
#    this one ($B/tenferro_bench_vk_gemm, "fold") and this one with the combine's k summed in
#    f32 ($B/foldk_bench_vk_gemm), f64 4096^3 and 2048^3 (certified default), four alternating
#    rounds of 7 calls;
# 3. the figure-of-record run (tools/gpu_bench.sh: PyTorch and JAX in the same run).
# Neither combine change gained (bench/RESULTS.md); both were reverted.
set -u
. tools/gpu_env.sh
gtest_check vk_ozaki_params_test '*'
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
cp "$OUT/checks.txt" /tmp/checks23.txt
bin() { [ "$1" = fold ] && echo "$B/tenferro_bench_vk_gemm" || echo "$B/$1_bench_vk_gemm"; }
for v in old fold foldk; do timeout 60 "$(bin $v)" f64_4096 f64_2048 --reps 2 > /dev/null 2>&1; done
: > /tmp/ab23.txt
for r in 1 2 3 4; do
  for v in old fold foldk; do
    timeout 60 "$(bin $v)" f64_4096 f64_2048 --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> /tmp/ab23.txt
  done
done
sh tools/gpu_bench.sh
echo "== checks"; cut -c1-300 /tmp/checks23.txt
echo "== A/B (build round case ms TFLOP/s)"; sort -s -k3,3 /tmp/ab23.txt | awk '{print $1, $2, $3, $12, $14}'
