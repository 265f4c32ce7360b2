#!/bin/sh
# The correctness check on the lent GPU: every test binary of the staged build that runs on Vulkan
# (the conformance tests against the naive reference, the Vulkan tests, einsum), every op-case
# file of tests/cases on both backends (`tenferro eval --backend all`: the CPU backend and the
# GPU, each against the file's expected values), and the f32 / f64 range probe (CPU against
# the GPU, tools/gpu/probe_range.py).
#
#   here:  sh tools/gpu/stage.sh build/release
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/check.sh [LABEL]
#          with carry [".gl", ".gpu"]
#
# One verdict line per binary and file group in $OUT/check.txt, printed last; the failing lines
# and the logs of failing binaries stay in $OUT. About 3 minutes on an H200; BUDGET
# (tools/gpu/env.sh) bounds it.
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")
C="$OUT/check.txt"
: > "$C"
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
export TENFERRO_INSTANCES="$PWD/data/instances"
for t in "$B"/*_test; do
  n=$(basename "$t")
  # spirv-val, which vk_spirv_patch_test runs, is a build-machine tool.
  [ "$n" = vk_spirv_patch_test ] && continue
  tl 300 "$t" > "$OUT/$n.log" 2>&1
  rc=$?
  echo "$n rc=$rc $(grep -E '^\[  (PASSED|FAILED|SKIPPED) ' "$OUT/$n.log" | tr '\n' ' ')" >> "$C"
  [ $rc = 0 ] && rm -f "$OUT/$n.log"
done
tl 300 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
echo "op-case files rc=$? $(tail -1 "$OUT/cases.txt")" >> "$C"
grep -h "^FAIL" "$OUT/cases.txt" > "$OUT/cases_failed.txt"
rm -f "$OUT/cases.txt"
for g in gen gen64; do
  python3 tools/gpu/probe_range.py $g /tmp/probe.json
  tl 120 "$B/tenferro" eval /tmp/probe.json --backend all > /tmp/probe.out 2>&1
  echo "range probe $g: $(python3 tools/gpu/probe_range.py cmp /tmp/probe.out | tail -3 | tr '\n' ' ')" >> "$C"
done
head -20 "$OUT/cases_failed.txt"
cat "$C"
# The failing binaries' logs in one archive (the device tool returns at most 8 files).
(cd "$OUT" && ls *.log > /dev/null 2>&1 && tar czf logs.tgz *.log && rm -f *.log)
