#!/bin/sh
# Seventeenth session, first call: the GPU tests at HEAD (the sixteenth session's last commit,
# grid_stride_groups and f32 sign through f32_nan, had run on lavapipe only): the Vulkan GPU test
# binaries and the conformance tests (every backend), the op-case files and the range probes
# (tools/gpu_checks.sh); then the int8 cooperative-matrix probe (tools/coopmat_probe/).
# Carry [".gl", ".gpubench", "build/coopmat_probe"].
set -u
. tools/gpu_env.sh
. tools/gpu_checks.sh
run_checks
T=$B/t
for t in vk_indexing_gpu_test vk_cast_reduce_test dot_general_test indexing_test structural_test elementwise_test reduce_test; do
  timeout 120 "$T/$t" > "$OUT/$t.log" 2>&1
  echo "$t rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure' "$OUT/$t.log" | head -8 | tr '\n' ' ')" >> "$OUT/checks.txt"
done
rm -f "$OUT"/*.log
sh tools/coopmat_probe/run.sh > /dev/null 2>&1
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== coopmat"; cat "$OUT/coopmat_probe.txt"
