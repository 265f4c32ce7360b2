#!/bin/sh
# Short form of tools/gpu_bench.sh used for the 2026-11-29 H200 figures (bench/RESULTS.md).
# Run on the device machine from the project root with carry [".gl", ".gpubench"].
set -u
B=.gpubench; export LD_LIBRARY_PATH="$B/lib"; mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
timeout 60 "$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"
for c in f32_4096 f64_4096 c32_4096; do timeout 25 "$B/tenferro_bench_vk_gemm" "$c" --reps 5 >> "$OUT/vk_gemm.jsonl" 2>> "$OUT/vk_gemm.txt"; done
export PYTHONUNBUFFERED=1
timeout 60 python3 "$B/peer_bench.py" membound overhead --no-jax --instances "$B/instances" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
: > "$OUT/einsum.jsonl"
for i in bin_matmul_1024 lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26 str_mps_varying_inner_product_200; do
  timeout 12 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 5 --json >> "$OUT/einsum.jsonl" 2>> "$OUT/einsum_err.txt"
done
python3 "$B/summarize.py" "$OUT" | tee "$OUT/summary.txt"
cat "$OUT/vk_gemm.jsonl"
