#!/bin/sh
# One benchmark run on the lent GPU machine (see bench/RESULTS.md): tenferro's Vulkan
# benchmarks and the peers (tools/peer_bench.py from ../shared) in the same run.
# Prepare here:  sh tools/gpu_bench_stage.sh   (binaries, shared libraries, peer script, instances)
# Run there:     for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu_bench.sh
# with carry [".gl", ".gpubench"]. Full results land in $OUT; a short table is printed last.
set -u
B=.gpubench
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
"$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"
if [ -x "$B/tenferro_bench_vk_gemm" ]; then  # one process per case: no carry-over between cases
  for c in f32_4096 f32_8192 f64_4096 c32_4096 c64_2048 f64_batched; do
    timeout 120 "$B/tenferro_bench_vk_gemm" "$c" --reps 10 >> "$OUT/vk_gemm.jsonl" 2>> "$OUT/vk_gemm.txt"
  done
fi
export PYTHONUNBUFFERED=1
python3 "$B/peer_bench.py" gemm membound overhead --instances "$B/instances" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
: > "$OUT/einsum.jsonl"
for f in "$B"/instances/*.json; do
  case "$f" in *permutation_patterns*) continue ;; esac
  timeout 20 "$B/tenferro" einsum "$f" --backend vulkan --dtype f64 --path opt_size --repeat 7 --json \
    >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
python3 "$B/peer_bench.py" einsum --no-jax --instances "$B/instances" >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
python3 "$B/summarize.py" "$OUT" | tee "$OUT/summary.txt"
