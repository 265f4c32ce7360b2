#!/bin/sh
# Diagnostic run on the lent GPU (sixth session): the gemm kernel with its slice loop rolled
# (options n / p / q: 1 / 2 / 4 k steps per iteration, gemm_config.hpp) against the unrolled
# defaults at 4096^3 (f32, f64, c32) and c64 2048^3, then the f64 shapes of the largest einsum
# steps of the two MERA networks on several tiles and K splits (wave quantization), then the
# register counts NVIDIA reports for the rolled tiles (statistics capture: untimed).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
F32="128,128,16,8,8,fn 128,128,16,8,8,fp 128,128,16,8,8,fq 128,128,8,8,8,fn 128,128,8,8,8,fp 128,128,8,8,8,fq \
128,128,32,8,8,fsn 128,128,32,8,8,fsp 128,128,32,8,8,fsq 128,128,16,8,8,wfp 128,128,16,8,8,fxp 64,128,16,8,8,fp \
128,64,16,8,8,fp 128,128,16,8,4,fp 128,128,16,8,4,fn 256,128,16,8,8,wfsp 256,128,8,8,8,wfp 64,64,16,4,4,fp 128,128,16,8,8,f"
F64="64,128,16,8,8,fsn 64,128,16,8,8,fsp 64,128,16,8,8,fsq 64,128,8,8,8,fn 64,128,8,8,8,fp 64,128,8,8,8,fq \
128,64,8,4,8,fn 128,64,8,4,8,fp 128,64,8,4,8,fq 128,64,8,4,8,f 64,64,8,4,4,wfn 64,64,8,4,4,wfp 64,64,16,4,4,fn \
64,64,16,4,4,fp 64,64,16,4,4,fq 128,64,16,8,4,wfsp 128,128,8,8,4,fn 128,128,8,8,4,fp 128,128,16,8,8,fsp \
64,64,16,8,8,fsp 128,128,8,4,8,fp 128,128,16,4,8,fsp 64,128,16,4,8,fp 128,64,16,8,4,fp 64,128,16,8,8,fs"
C32="128,128,8,8,4,wfn 128,128,8,8,4,wfp 128,128,8,8,4,wfq 128,128,16,8,4,wfsp 64,128,8,4,8,fp 128,64,8,8,4,fp"
C64="64,32,8,4,4,n 64,32,8,4,4,p 64,32,8,4,4,q 64,64,8,4,4,p 128,64,8,4,4,p 64,64,4,4,4,p 64,32,8,4,4,-"
timeout 110 "$G" sweep f32_4096 --configs "$F32" --budget 60 --total 100 > "$OUT/roll_f32.jsonl" 2>&1
timeout 120 "$G" sweep f64_4096 --configs "$F64" --budget 80 --total 110 > "$OUT/roll_f64.jsonl" 2>&1
timeout 70 "$G" sweep c32_4096 c64_2048 --configs "$C32 $C64" --budget 30 --total 60 > "$OUT/roll_cplx.jsonl" 2>&1
# Largest MERA steps (bench/RESULTS.md): tile and split candidates for a wave-aware choice.
M="64,128,16,8,8,fs,1 64,128,16,8,8,fs,2 64,128,16,8,8,fs,3 64,128,16,8,8,fs,4 128,64,8,4,8,f,1 128,64,8,4,8,f,2 \
128,64,8,4,8,f,3 64,64,8,4,4,wf,1 64,64,8,4,4,wf,2 128,64,16,8,4,wfs,1 64,32,16,4,4,f,1 64,64,16,8,8,fs,1 \
64,128,16,8,8,fsp,1 64,64,8,4,4,wfp,1 64,128,16,8,8,fsp,3"
timeout 110 "$G" sweep f64:7290x399x4320 f64:399x7290x4320 f64:990x2187x4620 f64:9720x136x441 f64:399x4320x594 \
  f64:540x58320x136 f64:2160x3672x360 --configs "$M" --budget 14 --total 100 > "$OUT/mera_shapes.jsonl" 2>&1
# Register counts (statistics capture slows the pipelines: these timings are not used).
TENFERRO_VK_PIPELINE_STATS=1 timeout 40 "$G" sweep f32:256x256x256 --configs "$F32" --reps 1 --budget 50 \
  > "$OUT/regs_f32.txt" 2>&1
TENFERRO_VK_PIPELINE_STATS=1 timeout 40 "$G" sweep f64:256x256x256 --configs "$F64" --reps 1 --budget 50 \
  > "$OUT/regs_f64.txt" 2>&1
cd "$OUT" && tar czf roll.tgz *.jsonl *.txt && rm -f *.jsonl *.txt
tar xzf roll.tgz -O roll_f32.jsonl roll_f64.jsonl roll_cplx.jsonl mera_shapes.jsonl | grep -v '"configs_run"' | \
  sed 's/"median_ms":[^,]*,"best_ms":[^,]*,//; s/,"ok":true//'
