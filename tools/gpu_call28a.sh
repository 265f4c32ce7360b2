#!/bin/sh
# Twenty-eighth session, call 1 (carry [".gl", ".gpubench"]; .gpubench/old_* = the build at
# 3f75fea): persistent tiled GEMM dispatches (TENFERRO_VK_GEMM_PERSIST=n workgroups per SM, each
# looping over (batch, tile) pairs and loading the next tile's first slice before C's stores) and
# the trimmed last slice (TENFERRO_VK_GEMM_TAIL=1), with and without the staged C. Both settings
# exist only in the experiment build (bench/results/2026-12-03-h200-session28/
# experiment_persist_tail.patch on 3f75fea); they were dropped.
# 1. the refactored default (nothing set) against the build before, alternating rounds;
# 2. settings "persist stage tail" on short-K f64 products, the batched and 1024^3 f64 products,
#    f32 / c64 short-K, f64 / f32 4096^3 (FMA kernels), two orders;
# 3. einsum instances under three settings in alternating rounds; mera_open's profiles.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
CASES="f64:177147x243x50 f64:12474x810x154 f64:196830x45x11 f64:252x39600x56 f64:256x256x256x1024 \
f64:1024x1024x1024 f64:4096x4096x4096 f32:177147x243x50 c64:59049x243x50 f32:4096x4096x4096"
export TENFERRO_VK_GEMM_OZAKI=0
ab_gemm "$CASES" 3 alt
one() {  # one PERSIST STAGE TAIL
  echo "== persist=$1 stage=$2 tail=$3"
  TENFERRO_VK_GEMM_PERSIST=$1 TENFERRO_VK_GEMM_STAGE=$2 TENFERRO_VK_GEMM_TAIL=$3 timeout 120 "$G" $CASES --reps 10 2>&1 |
    grep -E "TFLOP|error"
}
S="0:0:0 0:0:1 1:0:0 2:0:0 3:0:0 4:0:0 2:0:1 2:1:1 0:1:0"
for s in $S; do one $(echo $s | tr : ' ') > /dev/null 2>&1; done
for s in $S $(echo $S | tr ' ' '\n' | tac); do one $(echo $s | tr : ' '); done > "$OUT/persist.txt" 2>&1
unset TENFERRO_VK_GEMM_OZAKI
ein() {  # ein SETTING INSTANCE REPEAT [ARGS]: one einsum call under setting base / pt / pts
  case $1 in base) e="" ;; pt) e="TENFERRO_VK_GEMM_PERSIST=2 TENFERRO_VK_GEMM_TAIL=1" ;;
    pts) e="TENFERRO_VK_GEMM_PERSIST=2 TENFERRO_VK_GEMM_TAIL=1 TENFERRO_VK_GEMM_STAGE=1" ;; esac
  env $e timeout 90 "$B/tenferro" einsum "$B/instances/$2.json" --backend vulkan --dtype f64 --path opt_size \
    --repeat "$3" ${4:-}
}
for i in str_nw_mera_open_26 str_nw_mera_closed_120 lm_batch_likelihood_sentence_3_12d gm_queen5_5_3.wcsp \
  bin_matmul_1024 str_mps_varying_inner_product_200 bin_batched_matmul_b32_m128_n128_k128; do
  for v in base pt pts; do ein $v $i 3 > /dev/null 2>&1; done
  for r in 1 2 3; do
    for v in base pt pts; do ein $v $i 7 --json | sed "s/^{/{\"value\":\"$v\",/" >> "$OUT/ab.jsonl" 2>/dev/null; done
  done
done
for v in base pt; do ein $v str_nw_mera_open_26 7 "--steps --profile --check" > "$OUT/mera_open_$v.txt" 2>&1; done
echo "== refactor A/B (old / new, ms)"; ab_gemm_table
echo "== persist stage tail"
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check \([a-zA-Z]*\).*/ \1/; s/ (best [^)]*)//' "$OUT/persist.txt" | cut -c1-120
grep -A7 "^dispatches" "$OUT"/mera_open_*.txt
grep -E "^time|check" "$OUT"/mera_open_*.txt
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "base pt pts"
