#!/bin/sh
# Twenty-second session: where the certified Ozaki-II product's time goes at f64 4096^3, per
# dispatch (tenferro einsum --profile on a 4096^3 matmul instance staged as
# $B/instances/bin_matmul_4096.json, not one of the project's instances): the default
# (certified), the normwise opt-in with 14 moduli, and the FMA kernels. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
I=$B/instances/bin_matmul_4096.json
for s in 1 14 0; do
  TENFERRO_VK_GEMM_OZAKI=$s timeout 120 "$B/tenferro" einsum "$I" --backend vulkan --dtype f64 --path opt_size \
    --repeat 7 --profile > "$OUT/profile_ozaki$s.txt" 2>&1
  echo "== TENFERRO_VK_GEMM_OZAKI=$s"; grep -E "^time|busy|^dispatches" -A3 "$OUT/profile_ozaki$s.txt" | grep -v "^--"
done
