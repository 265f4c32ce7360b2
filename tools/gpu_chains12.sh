#!/bin/sh
# Twelfth session, third device call: the chained C with 32-bit chain index arithmetic (new,
# $B/tenferro) against dcc5d9b's (old, $B/old_tenferro: 64-bit divisions inlined at every chain
# offset, which hung str_nw_mera_open_26 and gm_queen5_5_3.wcsp and made a step of
# str_nw_mera_closed_120 20x slower in the first two calls). Pipeline statistics and compile
# times of both, then TENFERRO_VK_GEMM_CHAINS 1 / 0 alternating with the new build, and profiles.
set -u
. tools/gpu_env.sh
mkdir -p "$OUT/stats" "$OUT/chains"
I=$B/instances
run() {  # run BUILD INSTANCE TIMEOUT
  TENFERRO_VK_GEMM_CHAINS=1 TENFERRO_VK_PIPELINE_STATS=1 timeout "$3" "$(ab_cli "$1")" einsum "$I/$2.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 3 --profile > "$OUT/stats/$1_$2.txt" 2>&1
  echo "rc=$?" >> "$OUT/stats/$1_$2.txt"
}
run old str_nw_mera_closed_120 40
for i in str_nw_mera_closed_120 str_nw_mera_open_26 gm_queen5_5_3.wcsp; do run new $i 40; done
for f in "$OUT"/stats/*.txt; do
  echo "== $f"; grep -E "rc=|median|gemm:|permute:" "$f"
  grep -E "^pipeline gemm" "$f" | cut -c1-330
  grep -E "^compiling" "$f" | tail -1
done > /tmp/stats_summary.txt 2>&1
cp /tmp/stats_summary.txt "$OUT/stats_summary.txt"
if grep -q "^rc=0" "$OUT/stats/new_str_nw_mera_open_26.txt"; then
  OUT=$OUT/chains sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_CHAINS "1 0" 3 str_nw_mera_open_26 \
    str_nw_mera_closed_120 gm_queen5_5_3.wcsp > /tmp/chains_table.txt 2>&1
  cp /tmp/chains_table.txt "$OUT/chains/table.txt"
fi
cat /tmp/stats_summary.txt /tmp/chains_table.txt 2>/dev/null
(cd "$OUT" && tar czf /tmp/results.tgz . && find . -type f ! -name stats_summary.txt -delete && mv /tmp/results.tgz .)
