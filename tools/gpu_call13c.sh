#!/bin/sh
# Thirteenth session, third call: the chained C's epilogue rewritten into the plain C's store
# loops (gemm.comp). 1) NVIDIA's pipeline statistics (registers, local memory) of chained and
# plain pipelines; 2) the same products with C compact / chained, chained with the tile as chosen
# (TENFERRO_VK_GEMM_CHAINS=3: no chained_config) and chained_t, each process run once untimed
# first (a pipeline's first compilation can run slow: second call); 3) einsum with chains off /
# on / on with the tiles as chosen, alternating.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
cases="f64_4096 f64:540x270x136x216 f64:177147x243x50 f64:990x2187x4620 f64:12474x810x154 f32_4096"
for l in compact chained; do
  for c in 0 3; do
    TENFERRO_VK_PIPELINE_STATS=1 TENFERRO_VK_GEMM_CHAINS=$c timeout 60 "$G" f64_4096 f64:540x270x136x216 --reps 1 --c-layout $l 2>&1 \
      | grep -i "gemm_f64" | grep -v compiling | sed "s/^/stats $l chains=$c /" >> "$OUT/stats.txt"
  done
done
for round in warm 1 2; do
  for v in compact:0 chained:0 chained:3 chained_t:3; do
    l=${v%:*} c=${v#*:}
    TENFERRO_VK_GEMM_CHAINS=$c timeout 60 "$G" $cases --reps 5 --c-layout $l 2>&1 | grep ' median ' | sed "s/^/$round $l chains=$c /" >> "$OUT/cstore.txt"
  done
done
for f in str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp str_mps_varying_inner_product_200 lm_batch_likelihood_sentence_3_12d; do
  for round in warm 1 2 3; do
    for c in 0 1 3; do
      r=$(TENFERRO_VK_GEMM_CHAINS=$c timeout 40 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 \
        --path opt_size --repeat 10 --json 2>&1 | python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print("%.4f" % (d["median_seconds"]*1e3))' 2>&1 | tail -1)
      echo "$round $f chains=$c $r ms" >> "$OUT/einsum.txt"
    done
  done
done
cut -c1-200 "$OUT/stats.txt"
grep -v '^warm' "$OUT/cstore.txt" | sed 's/  */ /g' | awk '{print $1, $2, $3, $4, $12, $14, $15}' | sort -k4,4 -k2,3 -s
grep -v '^warm' "$OUT/einsum.txt" | sort -k2,3 -s
