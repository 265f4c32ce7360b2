#!/bin/sh
# Twenty-first session, first call: the certified Ozaki-II product weighed against the wave
# model's estimate of the FMA kernels (gemm_fma_seconds), which now takes str_nw_mera_open_26's
# 990 x 2187 x 4620 product. Tests (Ozaki, wave model), that product alone (FMA 0 / default 1,
# two orders), mera_open's per-dispatch profile with --steps and --check under both settings,
# and alternating einsum rounds. Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:GemmWaveModel*'
ozaki_rounds "f64:990x2187x4620 f64:252x39600x56 f64:177147x243x50" "0 1"
I=$B/instances/str_nw_mera_open_26.json
for s in 1 0; do
  TENFERRO_VK_GEMM_OZAKI=$s timeout 120 "$B/tenferro" einsum "$I" --backend vulkan --dtype f64 --path opt_size \
    --repeat 7 --check --steps --profile > "$OUT/mera_open_ozaki$s.txt" 2>&1
done
OUT=$OUT/ab sh tools/gpu_einsum_ab.sh TENFERRO_VK_GEMM_OZAKI "1 0" 4 str_nw_mera_open_26 str_nw_mera_closed_120 \
  > "$OUT/ab_table.txt" 2>&1
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
for s in 1 0; do echo "== mera_open ozaki=$s"; grep -E "^median|^check|^ *(gemm|permute|busy)|dispatches   " -A5 "$OUT/mera_open_ozaki$s.txt" | grep -v "^step\|^ *[0-9]" | head -14; done
echo "== ab"; cat "$OUT/ab_table.txt"
