#!/bin/sh
# One benchmark run on the lent GPU machine (bench/RESULTS.md): tenferro's Vulkan benchmarks
# and the peers (PyTorch and JAX through ../shared/tools/peer_bench.py, tools/peer_gemm_small.py,
# tools/peer_einsum_jax.py) in the same run.
# Prepare here:  sh tools/gpu_bench_stage.sh   (binaries, shared libraries, peer scripts, instances)
# Run there:     for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu_bench.sh
# with carry [".gl", ".gpubench"]. Full results land in $OUT; a short table is printed last.
# About 4-5 minutes on an H200.
set -u
. tools/gpu_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
date -u > "$OUT/date.txt"
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
# Priming: NVIDIA's driver runs a pipeline it compiles for the first time markedly slower
# (str_matrix_chain_multiplication_100: 13.9 ms in every process with __GL_SHADER_DISK_CACHE=0,
# 3.1 ms once its shader disk cache holds the pipelines; bench/RESULTS.md). An untimed run of
# every benchmark first fills that cache, as it is filled on any machine after a first run;
# what is timed is the steady state, compile excluded (as for JAX).
timeout 60 "$B/tenferro_bench_vk" --quick > /dev/null 2>&1
timeout 90 "$B/tenferro_bench_vk_gemm" all f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512 --reps 1 > /dev/null 2>&1
TENFERRO_VK_GEMM_3M=1 timeout 30 "$B/tenferro_bench_vk_gemm" c32_4096 c64_2048 --reps 1 > /dev/null 2>&1
for f in "$B"/instances/*.json; do
  case "$f" in *permutation_patterns*) continue ;; esac
  timeout 30 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 1 > /dev/null 2>&1
done
timeout 90 "$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"
timeout 120 "$B/tenferro_bench_vk_gemm" all f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512 \
  --reps 10 > "$OUT/vk_gemm.txt" 2>&1
# The complex cases in the opt-in 3-multiply form (docs/gemm.md).
TENFERRO_VK_GEMM_3M=1 timeout 60 "$B/tenferro_bench_vk_gemm" c32_4096 c64_2048 --reps 10 > "$OUT/vk_gemm_3m.txt" 2>&1
# The small sizes again, per call inside a stream of 50 (tools/peer_gemm_small.py: torch_stream).
timeout 60 "$B/tenferro_bench_vk_gemm" f32_64 f32_128 f32_256 f32_512 f64_64 f64_128 f64_256 f64_512 \
  --reps 10 --stream > "$OUT/vk_gemm_stream.txt" 2>&1
: > "$OUT/einsum.jsonl"
for f in "$B"/instances/*.json; do
  case "$f" in *permutation_patterns*) continue ;; esac
  timeout 60 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 7 --json \
    --check --profile --steps >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
timeout 150 python3 "$B/peer_warm.py" "$B/peer_bench.py" gemm membound overhead --instances "$B/instances" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
timeout 60 python3 "$B/peer_gemm_small.py" >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
timeout 120 python3 "$B/peer_warm.py" "$B/peer_bench.py" einsum --no-jax --instances "$B/instances" >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
timeout 120 python3 "$B/peer_einsum_jax.py" --instances "$B/instances" bin_matmul_1024 nary_matmul_chain_64 \
  lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26 str_nw_mera_closed_120 >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
python3 "$B/summarize.py" "$OUT" | tee "$OUT/summary.txt"
# One archive of the raw results, and only it and the table left loose: the device tool
# returns at most 8 files.
(cd "$OUT" && tar czf /tmp/results.tgz . && find . -type f ! -name summary.txt -delete && mv /tmp/results.tgz .)
