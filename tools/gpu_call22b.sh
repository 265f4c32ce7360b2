#!/bin/sh
# Twenty-second session, second call: the combine pass's one-sum CRT (ozaki_crt.h) against the
# build before it (Garner's digits; staged as $B/old_bench_vk_gemm, $B/old_tenferro). Tests
# (Ozaki, the CRT tables), then f64 products in three alternating rounds per build: the
# default (the certified scheme where the model takes it), the scheme forced with 14 moduli
# (--ozaki-skip 14:0) and the same without its combine pass (14:4; the difference is the
# combine's time), then str_nw_mera_open_26 (old / new CLI, alternating). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_ozaki_params_test '*'
gtest_check vk_gemm_gpu_test 'GemmOzaki*:GemmWaveModel*'
bin() { [ "$1" = new ] && echo "$B/tenferro_bench_vk_gemm" || echo "$B/old_bench_vk_gemm"; }
D="f64_4096 f64:8192x8192x8192 f64:2048x2048x8192 f64:990x2187x4620"
F="f64_4096 f64:2048x2048x2048"
for v in old new; do timeout 120 "$(bin $v)" $D --reps 1 > /dev/null 2>&1; done
for r in 1 2 3; do
  for v in old new; do
    timeout 150 "$(bin $v)" $D --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r default /" >> "$OUT/ab.txt"
    for s in 14:0 14:4; do
      timeout 90 "$(bin $v)" $F --reps 7 --ozaki-skip $s 2>&1 | grep ' median ' | sed "s/^/$v $r $s /" >> "$OUT/ab.txt"
    done
  done
done
einsum_ab_builds "$OUT/einsum_ab.jsonl" 7 3 str_nw_mera_open_26 str_nw_mera_closed_120
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== build round setting case ms TFLOP/s"
sort -s -k4,4 -k3,3 "$OUT/ab.txt" | sed -E 's/^(\S+ \S+ \S+ \S+) .*median ([0-9.]+) ms +([0-9.]+) TFLOP.*/\1 \2 \3/'
echo "== einsum"; python3 tools/einsum_ab_table.py "$OUT/einsum_ab.jsonl" "old new" 2>&1 | tail -8
