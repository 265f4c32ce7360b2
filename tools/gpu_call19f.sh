#!/bin/sh
# Nineteenth session, sixth call: the residue kernel's rolled variant (ozaki_mm_nv_r: no
# register prefetch, rolled k steps; fewer live registers, aiming at two workgroups per SM)
# against the default ozaki_mm_nv: GemmOzakiTest on all three residue kernels; f64 4096^3 and
# 8192^3 with 14 moduli forced, whole (14:0) and the residue products alone (14:5), default
# ("nv") and rolled ("r"), two orders; PyTorch in the same call. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 --ozaki-skip 14:0 --ozaki-rolled > /dev/null 2>&1
for o in a b; do
  vs="nv r"; [ $o = b ] && vs="r nv"
  for v in $vs; do
    f=""; [ $v = r ] && f="--ozaki-rolled"
    for s in 14:5 14:0; do
      echo "== $v ozaki=$s order $o" >> "$OUT/gemm.txt"
      timeout 90 "$B/tenferro_bench_vk_gemm" f64_4096 f64:8192x8192x8192 --reps 10 --ozaki-skip "$s" $f >> "$OUT/gemm.txt" 2>&1
    done
  done
done
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
timeout 120 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
echo "== peers"; grep -E "float64_4096" "$OUT/peers.jsonl" | cut -c1-200
