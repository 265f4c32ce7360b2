#!/bin/sh
# Twentieth session, second call (figures of record): the certified Ozaki-II default after its
# q plane moved before the split's residue loop, against the first call's build (staged as
# old_tenferro_bench_vk_gemm), f64 4096^3, settings 1 (certified) and 14 (normwise), two
# orders; the FMA kernels (0) and the certified default at 4096^3 and 8192^3 (two orders); then
# tools/gpu_bench.sh (issue 5's cases with the new default, the einsum instances, PyTorch and
# JAX in the same call). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test '*Ozaki*'
timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 > /dev/null 2>&1
for o in a b; do
  for s in 1 14; do
    for v in old new; do
      bin="$B/tenferro_bench_vk_gemm"; [ $v = old ] && bin="$B/old_tenferro_bench_vk_gemm"
      echo "== $v ozaki=$s order $o" >> "$OUT/gemm.txt"
      TENFERRO_VK_GEMM_OZAKI=$s timeout 60 "$bin" f64_4096 --reps 10 >> "$OUT/gemm.txt" 2>&1
    done
  done
done
ozaki_rounds "f64_4096 f64:8192x8192x8192" "0 1"
echo "== checks"; cut -c1-400 "$OUT/checks.txt"
echo "== ozaki"; gemm_summary
mkdir -p "$OUT/ab" && mv "$OUT/gemm.txt" "$OUT/checks.txt" "$OUT/ab/"
sh tools/gpu_bench.sh
