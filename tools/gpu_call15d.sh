#!/bin/sh
# Fifteenth session, last call: f32 division in integers (every finite nonzero operand) on the
# H200: its test and its speed (tenferro_bench_vk: copy, add, div f32 2^28) with PyTorch's copy /
# add / div in the same run (tools/peer_div.py); two einsum instances with this build (the
# third call's build, with the stream-K shader, timed out there). EINSUM=0: without those
# (tools/gpu_call15e.sh, the sixth call).
set -u
. tools/gpu_env.sh
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
timeout 60 "$T/vk_analytic_accuracy_test" --gtest_filter='*Div*' > "$OUT/div_test.txt" 2>&1; echo "rc=$?" >> "$OUT/div_test.txt"
timeout 60 "$B/tenferro_bench_vk" > /dev/null 2> "$OUT/vk_bench.txt"
timeout 90 python3 tools/peer_div.py > "$OUT/peer_div.txt" 2>&1
timeout 60 "$B/tenferro_bench_vk" > /dev/null 2> "$OUT/vk_bench2.txt"
[ "${EINSUM:-1}" = 0 ] && set -- || set -- str_nw_mera_open_26 lm_batch_likelihood_sentence_3_12d
for i in "$@"; do
  s=$(date +%s%N)
  timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 10 > "$OUT/e.txt" 2>&1
  echo "$i rc=$? wall_ms=$(( ($(date +%s%N) - s) / 1000000 )) $(grep -E 'time' "$OUT/e.txt")" >> "$OUT/einsum.txt"
done
rm -f "$OUT/e.txt"
echo "== div test"; grep -E "Failure|PASSED|FAILED|rc=|flushed" "$OUT/div_test.txt" | head
[ -f "$OUT/einsum.txt" ] && { echo "== einsum"; cat "$OUT/einsum.txt"; }
echo "== ours (two runs around the peer)"; grep -E "^(copy|add|div) " "$OUT/vk_bench.txt"; grep -E "^(copy|add|div) " "$OUT/vk_bench2.txt"
echo "== peer"; cat "$OUT/peer_div.txt"
