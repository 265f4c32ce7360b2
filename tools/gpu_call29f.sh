#!/bin/sh
# Twenty-ninth session, call 6 (carry [".gl", ".gpubench"]; .gpubench/audit: the conformance
# audit's op-case files, not committed): the op-case files on the H200's Vulkan driver and the
# CPU backend (tests/cases and the audit's checked cases: `tenferro eval --backend all`), and the
# audit's differential file (no expected values) on each backend, printed for a comparison here.
set -u
. tools/gpu_env.sh
timeout 200 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
A="$B/audit"
timeout 200 "$B/tenferro" eval $(ls $A/*.json | grep -v d1.json) --backend all > "$OUT/audit.txt" 2>&1
for be in cpu vulkan; do timeout 100 "$B/tenferro" eval "$A/d1.json" --backend $be > "$OUT/d1_$be.txt" 2>&1; done
grep -hv "^PASS" "$OUT/cases.txt" "$OUT/audit.txt" | head -40
tail -1 "$OUT/cases.txt"; tail -1 "$OUT/audit.txt"; wc -l "$OUT"/d1_*.txt
