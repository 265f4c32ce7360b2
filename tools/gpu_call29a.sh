#!/bin/sh
# Twenty-ninth session, call 1 (carry [".gl", ".gpubench"]): the interleaved order's memory slack
# (TENFERRO_EINSUM_SLACK, percent of the plan's live tensors by which the order may exceed the
# planned order's peak: fewer dispatch levels) on the lm_* instances, alternating calls; the
# per-dispatch profile of lm_batch_likelihood_sentence_3_12d at 0 and 50; JAX on it in the same run.
# The option existed only in the experiment build (core/einsum/execute.cpp `interleave`: its peak
# test against planned peak + slack x (planned peak + inputs)); not kept (bench/RESULTS.md).
set -u
. tools/gpu_env.sh
VALS="0 10 25 50"
run() {  # run SLACK INSTANCE REPEAT [ARGS]
  TENFERRO_EINSUM_SLACK=$1 timeout 60 "$B/tenferro" einsum "$B/instances/$2.json" --backend vulkan --dtype f64 \
    --path opt_size --repeat "$3" ${4:-}
}
for i in lm_batch_likelihood_sentence_3_12d lm_batch_likelihood_sentence_4_4d lm_batch_likelihood_brackets_4_4d; do
  for v in $VALS; do run $v $i 3 > /dev/null 2>&1; done
  for r in 1 2 3; do
    for v in $VALS; do run $v $i 7 --json | sed "s/^{/{\"value\":\"$v\",/" >> "$OUT/ab.jsonl" 2>/dev/null; done
  done
  for v in $VALS; do run $v $i 3 --check | grep -E "^(memory|check)" | sed "s/^/$i slack $v: /" >> "$OUT/mem.txt"; done
done
for v in 0 50; do run $v lm_batch_likelihood_sentence_3_12d 7 "--profile --steps" > "$OUT/lm312_profile_$v.txt" 2>&1; done
timeout 120 python3 "$B/peer_einsum_jax.py" --instances "$B/instances" lm_batch_likelihood_sentence_3_12d \
  > "$OUT/jax.jsonl" 2> "$OUT/jax_err.txt"
for v in $VALS; do run $v lm_batch_likelihood_sentence_3_12d 7 --json | sed "s/^{/{\"value\":\"$v\",/" >> "$OUT/ab.jsonl" 2>/dev/null; done
cat "$OUT/mem.txt"; grep -h "order\|busy" "$OUT"/lm312_profile_*.txt
tail -c 600 "$OUT/jax.jsonl"
python3 tools/einsum_ab_table.py "$OUT/ab.jsonl" "$VALS"
