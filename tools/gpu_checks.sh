# Sourced by the fourteenth session's run scripts after tools/gpu_env.sh: run_checks appends to
# $OUT/checks.txt the verdicts of vk_gemm_gpu_test, vk_analytic_accuracy_test and
# vk_elementwise_test, of the op-case files (tenferro eval --backend all: CPU and the GPU) and
# of tools/probe_range.py's range probes (gen, gen64: CPU against the GPU), all staged in $B/t
# (t.tar.xz).
run_checks() {
  T=$B/t
  [ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
  C="$OUT/checks.txt"
  for t in vk_gemm_gpu_test vk_analytic_accuracy_test vk_elementwise_test; do
    timeout 150 "$T/$t" > "$OUT/$t.log" 2>&1
    echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure|Which is|want' "$OUT/$t.log" | head -12 | tr '\n' ' ')" >> "$C"
  done
  grep -h "flushed" "$OUT"/vk_analytic_accuracy_test.log >> "$C"
  for f in "$T"/*.json; do
    echo "$(basename "$f") $(timeout 60 "$B/tenferro" eval "$f" --backend all 2>&1 | grep -v '^PASS ' | tr '\n' ' ' | cut -c1-600)" >> "$C"
  done
  for g in gen gen64; do
    python3 "$T/probe_range.py" $g "$OUT/probe.json"
    timeout 60 "$B/tenferro" eval "$OUT/probe.json" --backend all > "$OUT/probe_$g.out" 2>&1
    python3 "$T/probe_range.py" cmp "$OUT/probe_$g.out" >> "$C"
  done
  rm -f "$OUT/probe.json" "$OUT"/*.log
}
