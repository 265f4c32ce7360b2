#!/bin/sh
# The figure run on the lent GPU (bench/RESULTS.md): tenferro's Vulkan benchmarks (memory-bound
# ops, small-op overhead, GEMM), einsum on every instance of data/instances (f64, the stored
# opt_size path), and the peers (PyTorch and JAX through ../shared/tools/peer_bench.py,
# tools/gpu/peer_gemm_small.py and peer_einsum_jax.py) in the same run.
#
#   here:  sh tools/gpu/stage.sh build/release            (and, for a comparison, an older
#          build: sh tools/gpu/stage.sh build/before before --no-tests)
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/bench.sh [LABEL...]
#          with carry [".gl", ".gpu"]
#
# LABEL: staged builds to time (default "new"). With several, every group runs once per label,
# alternating, so that both see the same clocks; the first label's einsum runs also --check
# against the CPU backend and --profile (GPU time per kernel family). Per label the results land
# in $OUT/LABEL/, the peers' in $OUT/peers.jsonl; the tables are printed last and kept in
# $OUT/summary.txt beside one archive of everything (the device tool returns at most 8 files).
# About 4 minutes for one label on an H200, 7 for two; BUDGET (tools/gpu/env.sh) bounds it.
set -u
. tools/gpu/env.sh
labels=${*:-new}
first=${labels%% *}
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
date -u > "$OUT/date.txt"
"$(bin "$first")/tenferro" devices > "$OUT/devices.txt" 2>&1
for L in $labels; do echo "$L $(cat "$G/$L/commit.txt" 2>/dev/null)"; done > "$OUT/commits.txt"

gemm_cases="all f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512"
small_cases="f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512"
instances=$(ls data/instances/*.json | grep -v permutation_patterns)

# Priming: NVIDIA's driver runs a pipeline it compiles for the first time markedly slower than
# one loaded from its shader disk cache (str_matrix_chain_multiplication_100: 13.9 ms against
# 3.1 ms). One untimed run of everything fills that cache, as any machine's is after a first run.
for L in $labels; do
  B=$(bin "$L")
  mkdir -p "$OUT/$L"
  tl 60 "$B/tenferro_bench_vk" --quick > /dev/null 2>&1
  tl 90 "$B/tenferro_bench_vk_gemm" $gemm_cases --reps 1 > /dev/null 2>&1
  tl 30 env TENFERRO_VK_GEMM_3M=1 "$B/tenferro_bench_vk_gemm" c32_4096 c64_2048 --reps 1 > /dev/null 2>&1
  for f in $instances; do
    tl 30 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 1 > /dev/null 2>&1
  done
done

for L in $labels; do
  tl 90 "$(bin "$L")/tenferro_bench_vk" > "$OUT/$L/vk_bench.jsonl" 2> "$OUT/$L/vk_bench.txt"
done
for L in $labels; do
  B=$(bin "$L")
  tl 120 "$B/tenferro_bench_vk_gemm" $gemm_cases --reps 10 > "$OUT/$L/vk_gemm.txt" 2>&1
  # The complex cases in the opt-in 3-multiply form (docs/gemm.md).
  tl 60 env TENFERRO_VK_GEMM_3M=1 "$B/tenferro_bench_vk_gemm" c32_4096 c64_2048 --reps 10 > "$OUT/$L/vk_gemm_3m.txt" 2>&1
  # The small sizes per call inside a stream of 50 (as peer_gemm_small.py's torch_stream).
  tl 60 "$B/tenferro_bench_vk_gemm" $small_cases --reps 10 --stream > "$OUT/$L/vk_gemm_stream.txt" 2>&1
done
for f in $instances; do
  for L in $labels; do
    extra=""
    [ "$L" = "$first" ] && extra="--check --profile --steps"
    tl 60 "$(bin "$L")/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 7 --json \
      $extra >> "$OUT/$L/einsum.jsonl" 2>> "$OUT/$L/einsum_err.txt"
  done
done

P=tools/gpu
tl 150 python3 $P/peer_warm.py .gpu/peer_bench.py gemm membound overhead --instances data/instances \
  > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
tl 60 python3 $P/peer_gemm_small.py >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
tl 120 python3 $P/peer_warm.py .gpu/peer_bench.py einsum --no-jax --instances data/instances \
  >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
tl 120 python3 $P/peer_einsum_jax.py --instances data/instances bin_matmul_1024 nary_matmul_chain_64 \
  lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26 str_nw_mera_closed_120 >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"

for L in $labels; do
  echo "######## $L"
  python3 $P/summarize.py "$OUT/$L" "$OUT/peers.jsonl"
done > "$OUT/summary.txt"
cat "$OUT/summary.txt"
(cd "$OUT" && tar czf /tmp/results.tgz . && find . -mindepth 1 ! -name summary.txt -delete && mv /tmp/results.tgz .)
