#!/bin/sh
# (Stream K was reverted after these calls: re-running needs bench/results/2026-12-02-h200-session15/streamk.patch.)
# Fifteenth session, second call: (1) div f32 2^28 after the integer fast path
# (tenferro_bench_vk); (2) vk_gemm_gpu_test (stream K over the H200's 132 SMs) and the f32
# division test; (3) stream K against the same tiles without it, in-stream, two orders after a
# compile pass (the defaults carry k: f32 / c32 two per SM, f64 4096^3 one); c64 and the batched
# f64 product with k, kk, kkk (their residency is not known); (4) einsum with and without stream
# K (TENFERRO_VK_GEMM_STREAMK=0), alternating, on the instances whose products take kF64Huge.
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
timeout 120 "$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"
timeout 200 "$T/vk_gemm_gpu_test" > "$OUT/gemm_test.txt" 2>&1; echo "gemm test rc=$?" >> "$OUT/gemm_test.txt"
timeout 60 "$T/vk_analytic_accuracy_test" --gtest_filter='*Div*' > "$OUT/div_test.txt" 2>&1; echo "div test rc=$?" >> "$OUT/div_test.txt"
f32="128,128,8,16,8,fsxu 128,128,8,16,8,fsxuk"
c32="64,128,8,8,8,wfsuly"
f64="128,128,8,8,8,wfsuly"
c64="64,64,8,4,8,fuk 64,64,8,4,8,fukk 64,64,8,4,8,fukkk"
fb="64,128,16,8,8,wfsuyk 64,128,16,8,8,wfsuykk"
warm f32_4096 "$f32"; warm f32_8192 "$f32"; warm c32_4096 "$c32"; warm f64_4096 "$f64"; warm c64_2048 "$c64"; warm f64_batched "$fb"
sweep2 f32 "f32_4096 f32_8192" "$f32" 30
sweep2 c32 "c32_4096" "$c32" 15
sweep2 f64 "f64_4096" "$f64" 15
sweep2 c64 "c64_2048" "$c64" 15
sweep2 fb "f64_batched" "$fb" 15
for i in str_nw_mera_open_26 str_nw_mera_closed_120 tensornetwork_permutation_light_415; do
  for v in 0 1; do TENFERRO_VK_GEMM_STREAMK=$v timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1; done
  for r in 1 2 3; do
    for v in 0 1; do
      TENFERRO_VK_GEMM_STREAMK=$v timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 \
        --path opt_size --repeat 10 --json | sed "s/^{/{\"value\":\"sk$v\",/" >> "$OUT/einsum_ab.jsonl" 2>/dev/null
    done
  done
done
summarize2
echo "== einsum (sk0 = without stream K)"; python3 tools/einsum_ab_table.py "$OUT/einsum_ab.jsonl" "sk0 sk1" 2>&1 || cat "$OUT/einsum_ab.jsonl" | cut -c1-300
echo "== vk_bench"; grep -E "^(copy|add|div)" "$OUT/vk_bench.txt"
echo "== tests"; tail -3 "$OUT/gemm_test.txt"; grep -E "Failure|FAILED" "$OUT/gemm_test.txt" | head; tail -2 "$OUT/div_test.txt"
