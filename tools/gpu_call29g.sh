#!/bin/sh
# Twenty-ninth session, call 7 (carry [".gl", ".gpubench"]): call 6 again with f32 subnormals kept
# where the H200 flushes them (m_sqrt / m_rsqrt on the bits, complex sign and division scaled up
# by 2^64 from the bits): the op-case files on both backends, the audit's differential file.
# Written, not run: the session's device time was spent (the next session's first check).
set -u
. tools/gpu_env.sh
timeout 200 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
A="$B/audit"
for be in cpu vulkan; do timeout 100 "$B/tenferro" eval "$A/d1.json" --backend $be > "$OUT/d1_$be.txt" 2>&1; done
timeout 200 "$B/tenferro" eval $(ls $A/*.json | grep -v d1.json) --backend all > "$OUT/audit.txt" 2>&1
grep -h "^FAIL" "$OUT/cases.txt" | head -20
tail -1 "$OUT/cases.txt"; tail -1 "$OUT/audit.txt"; grep -c "^FAIL" "$OUT/audit.txt"
