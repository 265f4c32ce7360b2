#!/bin/sh
# Thirtieth session, call 4 (carry [".gl", ".gpubench"]): scatter's f32 / c32 combiners computed
# in double where the driver flushes f32 subnormals (scatter_f32w / _c32w). The op-case files on
# both backends by default, and tests/cases/subnormal.json (now with scatter add / mul / max and
# c32 add) with TENFERRO_VK_F32_VIA_F64=0 (the f32 kernels: expected to fail there).
set -u
. tools/gpu_env.sh
timeout 200 "$B/tenferro" eval tests/cases/*.json --backend all > "$OUT/cases.txt" 2>&1
TENFERRO_VK_F32_VIA_F64=0 timeout 60 "$B/tenferro" eval tests/cases/subnormal.json --backend vulkan > "$OUT/subnormal_off.txt" 2>&1
grep -h "^FAIL" "$OUT/cases.txt" | head; tail -1 "$OUT/cases.txt"
grep "^FAIL" "$OUT/subnormal_off.txt" | cut -c1-120; tail -1 "$OUT/subnormal_off.txt"
