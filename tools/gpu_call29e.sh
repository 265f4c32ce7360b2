#!/bin/sh
# Twenty-ninth session, call 5 (carry [".gl", ".gpubench"]): the driver's statistics (registers,
# shared memory) of the Ozaki-II passes' pipelines (TENFERRO_VK_PIPELINE_STATS=1), f64 and c64.
set -u
. tools/gpu_env.sh
export __GL_SHADER_DISK_CACHE=0
TENFERRO_VK_PIPELINE_STATS=1 timeout 120 "$B/tenferro_bench_vk_gemm" f64_4096 c64_2048 --reps 1 > "$OUT/stats.txt" 2>&1
grep -E "^pipeline (ozaki|gemm_f64)" "$OUT/stats.txt" | sed 's/Local_Memory_Size=[0-9]* //; s/compile_ms=[0-9.]* //'
