#!/bin/sh
# Thirtieth session, call 1 (carry [".gl", ".gpubench"]): the twenty-ninth session's owed check
# (tools/gpu_call29g.sh: the op-case files and the audit on both backends, with f32 subnormals
# kept by m_sqrt / m_rsqrt / c32 sign / c32 division), and a probe of where else the H200 keeps
# or flushes f32 subnormals (.gpubench/sub/sub.json: conversions, casts, reductions, a product,
# copies), printed on both backends for a diff.
set -u
. tools/gpu_env.sh
sh tools/gpu_call29g.sh
for be in cpu vulkan; do timeout 60 "$B/tenferro" eval "$B/sub/sub.json" --backend $be > "$OUT/sub_$be.txt" 2>&1; done
"$B/tenferro" devices > "$OUT/devices.txt" 2>&1
sed 's/ \[cpu\]//' "$OUT/sub_cpu.txt" > /tmp/a; sed 's/ \[vulkan\]//' "$OUT/sub_vulkan.txt" > /tmp/b
diff /tmp/a /tmp/b | cut -c1-220
