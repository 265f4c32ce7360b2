#!/bin/sh
# Twenty-fifth session, call 1 (carry [".gl", ".gpubench"]): where str_nw_mera_closed_120's and
# str_nw_mera_open_26's GPU time goes now, per dispatch in step order
# (TENFERRO_EINSUM_INTERLEAVE=0, --steps --profile), and the certified Ozaki-II product forced
# against the time model's choice and the FMA kernels on their largest f64 products and on
# bin_matmul_1024's 1024^3.
set -u
. tools/gpu_env.sh
for i in str_nw_mera_closed_120 str_nw_mera_open_26; do
  timeout 60 "$B/tenferro" einsum "$B/instances/$i.json" --backend vulkan --dtype f64 --path opt_size --repeat 3 > /dev/null 2>&1
  TENFERRO_EINSUM_INTERLEAVE=0 timeout 120 "$B/tenferro" einsum "$B/instances/$i.json" \
    --backend vulkan --dtype f64 --path opt_size --repeat 7 --steps --profile > "$OUT/${i}_profile.txt" 2>&1
done
ozaki_rounds "f64:399x7290x4320 f64:7290x399x4320 f64:3672x2160x360 f64:540x270x136x216 f64:1024x1024x1024" "0 1 14:0:c"
for f in "$OUT"/*_profile.txt; do echo "== $f"; grep -E "^time|busy|gemm:|permute:" "$f"; done
echo "== gemm"; gemm_summary
