#!/bin/sh
# Usage: cli_sliced_check.sh COMMAND...: runs a sliced `tenferro einsum ... --check --json`
# (directly or under mpirun) and passes when the result matched the CPU reference, the run was
# sliced (two slices or more) and the most any rank held beside its operands and result stayed
# within the memory limit.
out=$("$@") || { echo "command failed: $*"; printf '%s\n' "$out"; exit 1; }
printf '%s\n' "$out" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read().strip().splitlines()[-1])
s = j["slicing"]
print("slices", s["slices"], "ranks", s["ranks"], "devices", s["devices"], "held", s["held_bytes"],
      "limit", s["memory_limit_bytes"], "rel_error", j["check"]["rel_error"])
assert j["check"]["ok"], "result differs from the CPU reference"
assert s["slices"] >= 2, "not sliced"
assert s["held_bytes"] <= s["memory_limit_bytes"], "held more than the limit"
'
