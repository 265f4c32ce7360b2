#!/bin/sh
# Twenty-second session: the certify pass with an invocation per row and run of 16 columns (the
# row's words read once) against the build before it ($B/old_bench_vk_gemm: an invocation per
# output). Ozaki tests, three alternating rounds of the default f64 products, then the
# per-dispatch profile of a 4096^3 matmul instance (staged as $B/instances/bin_matmul_4096.json)
# after a warm GPU: certified, the normwise opt-in with 14 moduli. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
bin() { [ "$1" = new ] && echo "$B/tenferro_bench_vk_gemm" || echo "$B/$1_bench_vk_gemm"; }
D="f64_4096 f64:8192x8192x8192 f64:2048x2048x8192 f64:990x2187x4620"
for v in old new; do timeout 120 "$(bin $v)" $D --reps 1 > /dev/null 2>&1; done
for r in 1 2 3; do
  for v in old new; do
    timeout 150 "$(bin $v)" $D --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r default /" >> "$OUT/ab.txt"
  done
done
I=$B/instances/bin_matmul_4096.json
for s in 1 14; do
  TENFERRO_VK_GEMM_OZAKI=$s timeout 120 "$B/tenferro" einsum "$I" --backend vulkan --dtype f64 --path opt_size \
    --repeat 9 --profile > "$OUT/profile_ozaki$s.txt" 2>&1
done
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== build round setting case ms TFLOP/s"
sort -s -k4,4 -k3,3 "$OUT/ab.txt" | sed -E 's/^(\S+ \S+ \S+ \S+) .*median ([0-9.]+) ms +([0-9.]+) TFLOP.*/\1 \2 \3/'
for s in 1 14; do echo "== TENFERRO_VK_GEMM_OZAKI=$s"; grep -E "^time|busy|^dispatches" -A3 "$OUT/profile_ozaki$s.txt" | grep -v "^--"; done
