#!/bin/sh
# Twenty-ninth session, call 2 (carry [".gl", ".gpubench"]): lm_batch_likelihood_sentence_3_12d's
# host floor (every extent clamped to 1 or 2: the GPU's work is trivial, what is left is host
# work and dispatch latency) against its real run, alternating; then the figure run at the
# final code (tools/gpu_bench.sh). Between them, f32 str_nw_mera_closed_120's profile with and without
# the staged C.
set -u
. tools/gpu_env.sh
I="$B/instances/lm_batch_likelihood_sentence_3_12d.json"
for r in 1 2 3; do
  for x in 1 2 0; do
    a=""; [ $x -gt 0 ] && a="--max-extent $x"
    timeout 60 "$B/tenferro" einsum "$I" --backend vulkan --dtype f64 --path opt_size --repeat 21 $a 2>&1 |
      grep "^time" | sed "s/^/max-extent $x: /" >> "$OUT/floor.txt"
  done
done
cat "$OUT/floor.txt"
# Which step of f32 str_nw_mera_closed_120 the staged C slows (twenty-eighth session: 3.90 -> 4.93 ms).
M="$B/instances/str_nw_mera_closed_120.json"
for v in 0 1 0 1; do
  TENFERRO_VK_GEMM_STAGE=$v timeout 60 "$B/tenferro" einsum "$M" --backend vulkan --dtype f32 --path opt_size \
    --repeat 5 --profile --steps > "$OUT/mc32_stage$v.txt" 2>&1
done
grep -h "^time" "$OUT"/mc32_stage*.txt
sh tools/gpu_bench.sh
