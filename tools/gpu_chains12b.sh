#!/bin/sh
# Twelfth session, fourth and fifth device calls: the chained C with its row and column offsets tabulated
# in shared memory (gemm.comp chain_offs) instead of computed in the unrolled stores. Pipeline
# statistics and compile times, then TENFERRO_VK_GEMM_CHAINS 1 / 0 alternating on the three
# instances with chained outputs, then PyTorch (opt_einsum) and JAX on the same instances. Fifth
# call: the chained configurations rolled (gemm.cpp chained_config), PEERS=0 (no peers).
set -u
. tools/gpu_env.sh
mkdir -p "$OUT/stats" "$OUT/chains"
I=$B/instances
for i in str_nw_mera_open_26 gm_queen5_5_3.wcsp str_nw_mera_closed_120; do
  TENFERRO_VK_GEMM_CHAINS=1 TENFERRO_VK_PIPELINE_STATS=1 timeout 30 "$B/tenferro" einsum "$I/$i.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 3 --profile --check > "$OUT/stats/$i.txt" 2>&1
  echo "rc=$?" >> "$OUT/stats/$i.txt"
done
for f in "$OUT"/stats/*.txt; do
  echo "== $f"; grep -E "rc=|median|check|gemm:|permute:|busy" "$f"
  grep -E "^pipeline gemm" "$f" | awk '{split($5,a,"="); if (int(a[2]/32)%2==1) print}' | cut -c1-300
  grep -E "^compiling" "$f" | tail -1
done > "$OUT/stats_summary.txt" 2>&1
if grep -q "^rc=0" "$OUT/stats/str_nw_mera_open_26.txt"; then  # the A/B only when every pipeline compiled
  OUT=$OUT/chains sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_CHAINS "1 0" 3 str_nw_mera_open_26 \
    str_nw_mera_closed_120 gm_queen5_5_3.wcsp > "$OUT/chains_table.txt" 2>&1
  [ "${PEERS:-1}" = 0 ] && exit_peers=1 || exit_peers=0
  [ $exit_peers = 1 ] || timeout 100 python3 "$B/peer_warm.py" "$B/peer_bench.py" einsum --no-jax --instances "$B/inst3" > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
  [ $exit_peers = 1 ] || timeout 100 python3 "$B/peer_einsum_jax.py" --instances "$B/inst3" str_nw_mera_open_26 str_nw_mera_closed_120 >> "$OUT/peers.jsonl" 2>> "$OUT/peers_err.txt"
fi
cat "$OUT/stats_summary.txt" "$OUT/chains_table.txt" 2>/dev/null
grep -h opt_size "$OUT/peers.jsonl" 2>/dev/null
(cd "$OUT" && tar czf /tmp/results.tgz . && find . -type f ! -name stats_summary.txt -delete && mv /tmp/results.tgz .)
