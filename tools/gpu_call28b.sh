#!/bin/sh
# Twenty-eighth session, call 2 (carry [".gl", ".gpubench"], the build at 3f75fea): the staged C
# (TENFERRO_VK_GEMM_STAGE 1 / 0) on f32 and c32 products whose C the register tile would store
# with half-filled sectors (odd M, columns 16- but not 32-byte aligned, chained or transposed C),
# two orders after an untimed process each; f32 einsum instances in alternating calls; then a
# tile sweep of f64 1024^3 (bin_matmul_1024), twice (the first process compiles).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
CASES="f32:177147x243x50 f32:12474x810x154 f32:196830x45x11 f32:252x39600x56 f32:2049x2049x2049 \
f32:1023x1023x1023 f32:999x999x64 f32:127x127x127 f32:4096x4096x4096 c32:59049x243x50 c32:12474x810x154 \
c32:1025x1025x1025 c32:127x127x127"
one() {  # one STAGE [ARGS]
  echo "== stage=$1 ${2:-}"
  TENFERRO_VK_GEMM_STAGE=$1 timeout 100 "$G" $CASES ${2:-} --reps 10 2>&1 | grep -E "TFLOP|error"
}
LAY="--c-layout chained"
for s in 0 1; do one $s > /dev/null 2>&1; one $s "$LAY" > /dev/null 2>&1; done
for s in 0 1 1 0; do one $s; one $s "$LAY"; done > "$OUT/stage.txt" 2>&1
for i in str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp lm_batch_likelihood_sentence_3_12d; do
  for v in 0 1; do
    TENFERRO_VK_GEMM_STAGE=$v timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f32 \
      --path opt_size --repeat 3 > /dev/null 2>&1
  done
  for r in 1 2 3; do
    for v in 0 1; do
      TENFERRO_VK_GEMM_STAGE=$v timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f32 \
        --path opt_size --repeat 7 --json | sed "s/^{/{\"value\":\"$v\",/" >> "$OUT/ab.jsonl" 2>/dev/null
    done
  done
done
timeout 40 "$G" sweep f64:1024x1024x1024 --budget 15 > /dev/null 2>&1
timeout 40 "$G" sweep f64:1024x1024x1024 --budget 15 > "$OUT/sweep1024.jsonl" 2>&1
echo "== stage"
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check \([a-zA-Z]*\).*/ \1/; s/ (best [^)]*)//' "$OUT/stage.txt" |
  awk '/^==/{print; next}{print "   ", $1, $4, $6, $7, $8, $10}'
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "0 1"
sweep_summary "$OUT/sweep1024.jsonl"
