#!/bin/sh
# Nineteenth session, first call: the Ozaki-II passes reworked (unsigned residues, the split's
# exact quotient and tabulated constants, u8 tensor-core products, one output per combine
# invocation, 32-bit index divisions): GemmOzakiTest on both residue kernels; f64 4096^3 with
# the scheme forced, the build before ("old", b33b2d7, staged as old_tenferro_bench_vk_gemm)
# against this one ("new"), whole (14:0, 12:0) and by passes (14:6 scan / scale / split only,
# 14:3 combine only, 14:14 scan / scale only), two orders; 8192^3 and the time model (new);
# NVIDIA's shader disk cache of the new passes (for nvdisasm later); PyTorch in the same call.
# Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
bin() { if [ "$1" = old ]; then echo "$B/old_tenferro_bench_vk_gemm"; else echo "$B/tenferro_bench_vk_gemm"; fi; }
for v in old new; do timeout 60 "$(bin $v)" f64_4096 --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1; done
for o in a b; do
  vs="old new"; [ $o = b ] && vs="new old"
  for v in $vs; do
    for s in 14:0 14:6 14:3 14:14 12:0; do
      echo "== $v ozaki=$s order $o" >> "$OUT/gemm.txt"
      timeout 90 "$(bin $v)" f64_4096 --reps 10 --ozaki-skip "$s" >> "$OUT/gemm.txt" 2>&1
    done
  done
done
for s in 0 14; do
  echo "== new model ozaki=$s" >> "$OUT/gemm.txt"
  TENFERRO_VK_GEMM_OZAKI=$s timeout 90 "$B/tenferro_bench_vk_gemm" f64_4096 f64:8192x8192x8192 --reps 10 >> "$OUT/gemm.txt" 2>&1
done
echo "== new ozaki=14:0 8192" >> "$OUT/gemm.txt"
timeout 90 "$B/tenferro_bench_vk_gemm" f64:8192x8192x8192 --reps 10 --ozaki-skip 14:0 >> "$OUT/gemm.txt" 2>&1
d=/tmp/glc19; rm -rf "$d"; mkdir -p "$d"
__GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
  timeout 60 "$B/tenferro_bench_vk_gemm" f64_4096 --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1
tar cJf "$OUT/glcache.tar.xz" -C /tmp glc19
gemm_peers_report
