#!/bin/sh
# Diagnostic run on the lent GPU (bench/RESULTS.md, fourth session): the GEMM sweep of the mid
# sizes (512-2048, tile against wave count and split K) and of the small einsum products, the
# small-op overhead chain before and after, and PyTorch's small GEMMs in the same run.
# Prepare here:  sh tools/gpu_bench_stage.sh && strip .gpubench/tenferro*
# Run there:     for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu_bench_mid.sh
# with carry [".gl", ".gpubench"]. About 5 minutes on an H200.
set -u
. tools/gpu_env.sh
date -u > "$OUT/date.txt"
timeout 60 "$B/tenferro_bench_vk" --quick > /dev/null 2>&1
timeout 60 "$B/tenferro_bench_vk" --quick --chain 2000 > "$OUT/overhead1.txt" 2>&1
timeout 250 "$B/tenferro_bench_vk_gemm" sweep f32_512 f64_512 f32_1024 f64_1024 f32_2048 f64_2048 f32_256 f64_256 \
  f64_lm_tiny f64_lm_k12 --budget 25 --total 240 > "$OUT/sweep_mid.jsonl" 2> "$OUT/sweep_mid_err.txt"
timeout 60 "$B/tenferro_bench_vk_gemm" f32_256 f32_512 f64_256 f64_512 f32_1024 f32_2048 f64_2048 --reps 10 \
  > "$OUT/defaults.txt" 2>&1
timeout 60 "$B/tenferro_bench_vk_gemm" f64_lm_tiny f64_lm_b12 f64_lm_k12 f64_lm_k11 --reps 10 --stream \
  > "$OUT/lm_stream.txt" 2>&1
timeout 90 python3 "$B/peer_gemm_small.py" --no-jax > "$OUT/peer_small.jsonl" 2>&1
timeout 60 python3 "$B/peer_bench.py" overhead --no-jax > "$OUT/peer_overhead.jsonl" 2>&1
timeout 60 "$B/tenferro_bench_vk" --quick --chain 2000 > "$OUT/overhead2.txt" 2>&1
grep -h "small-add\|overhead_small_add " "$OUT"/overhead*.txt
cat "$OUT/peer_overhead.jsonl" "$OUT/peer_small.jsonl" | grep -v "^$" | tail -20
grep -h '"best"' "$OUT/sweep_mid.jsonl"
cat "$OUT/defaults.txt" "$OUT/lm_stream.txt" | grep median
(cd "$OUT" && tar czf results.tgz --exclude results.tgz . )
