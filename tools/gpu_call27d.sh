#!/bin/sh
# Twenty-seventh session, call 5 (carry [".gl", ".gpubench"]): C's tile stored through shared
# memory (TENFERRO_VK_GEMM_STAGE 1 / 0) on the short-K products with large outputs, their
# stores alone (TENFERRO_VK_GEMM_DIAG=2, an experiment build), C's layouts; then the MERA
# instances in alternating calls and their per-dispatch profiles.
# TENFERRO_VK_GEMM_DIAG exists only in the experiment build
# (bench/results/2026-12-03-h200-session27/experiment_stage_diag.patch).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
one() {  # one STAGE DIAG CASE [ARGS]
  echo "== stage=$1 diag=$2 $3 ${4:-}"
  TENFERRO_VK_GEMM_STAGE=$1 TENFERRO_VK_GEMM_DIAG=$2 timeout 60 "$G" "$3" ${4:-} --reps 10 2>&1 | grep -E "TFLOP|error"
}
all() {
  for s in 1 0; do
    for c in f64:177147x243x50 f64:12474x810x154 f64:196830x45x11 f64:252x39600x56 f64:177152x256x50 \
      c64:59049x243x50 f32:177147x243x50; do
      one $s 0 $c
    done
    one $s 2 f64:177147x243x50
    one $s 0 f64:177147x243x50 "--c-layout transposed"
    one $s 0 f64:177147x243x50 "--c-layout chained"
    one $s 0 f64:12474x810x154 "--c-layout chained"
    one $s 0 f64:4096x4096x4096
  done
}
all > /dev/null 2>&1
all > "$OUT/stage.txt" 2>&1
for s in 1 0; do
  for i in str_nw_mera_open_26 str_nw_mera_closed_120; do
    TENFERRO_VK_GEMM_STAGE=$s timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  done
done
sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_STAGE "1 0" 4 str_nw_mera_open_26 str_nw_mera_closed_120 \
  lm_batch_likelihood_sentence_3_12d gm_queen5_5_3.wcsp > "$OUT/ab_stage.txt" 2>&1
for s in 1 0; do
  TENFERRO_VK_GEMM_STAGE=$s timeout 120 "$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile --check > "$OUT/mera_open_stage$s.txt" 2>&1
done
sed 's/ M=[^ ]* N=[^ ]* K=[^ ]* B=[^ ]*//; s/  check \([a-zA-Z]*\).*/ \1/; s/^[a-z0-9]*:[^ ]* [a-z0-9]*  //' "$OUT/stage.txt" | paste - - | cut -c1-150
grep -A7 "^dispatches" "$OUT"/mera_open_stage*.txt
grep -E "^time|check" "$OUT"/mera_open_stage*.txt
cat "$OUT/ab_stage.txt"
