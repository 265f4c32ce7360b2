#!/bin/sh
# Tenth session: the wave model with the 128 x 64 8 x 8 candidate (new) against the build before
# it (old: .gpubench/old_*), alternating: the two MERA products whose choice changes (defaults,
# in a stream), then the two MERA instances (medians of four alternating calls).
set -u
. tools/gpu_env.sh
for v in old new; do
  g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
  timeout 60 "$g" f64:7290x399x4320 f64:990x2187x4620 --stream --reps 2 > /dev/null 2>&1
done
for r in 1 2 3; do
  for v in old new; do
    g="$B/tenferro_bench_vk_gemm"; [ $v = old ] && g="$B/old_bench_vk_gemm"
    timeout 60 "$g" f64:7290x399x4320 f64:990x2187x4620 --stream --reps 15 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> "$OUT/gemm.txt"
  done
done
einsum_ab_builds "$OUT/einsum.jsonl" 7 4 str_nw_mera_closed_120 str_nw_mera_open_26
"$B/tenferro" einsum "$B/instances/str_nw_mera_closed_120.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 --check | tail -3
echo "== per call in a stream: build round case config ms"
sort -s -k3,3 "$OUT/gemm.txt" | awk '{print $1, $2, $3, $10, $12}'
python3 tools/einsum_ab_table.py "$OUT/einsum.jsonl" "old new"
