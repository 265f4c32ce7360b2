#!/bin/sh
# The CPU backend's figure run on the GPU machine's 16-core host (bench/RESULTS.md, "CPU backend
# against PyTorch CPU"): bench/cpu_einsum.py on data/instances, the products of --shapes and
# square products in every dtype, with default threads and 1, PyTorch CPU and NumPy +
# opt_einsum in the same run. No Vulkan is used.
#
#   here:  sh tools/gpu/stage.sh build/release
#   there: sh tools/gpu/cpu.sh [LABEL]   with carry [".gpu"]
#
# Tables in $OUT/cpu_einsum.md, every measurement in $OUT/cpu_einsum.jsonl. NumPy's slowest
# instances take about 10 s a run; --repeat 5 keeps the whole run within BUDGET (env.sh).
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")
nproc > "$OUT/nproc.txt"
lscpu > "$OUT/lscpu.txt" 2>&1
tl 560 python3 bench/cpu_einsum.py --tenferro "$B/tenferro" --instances data/instances --threads default,1 \
  --repeat 5 --shapes --gemm 1024,4096 --gemm-dtypes f64,f32,c64,c32 --out "$OUT/cpu_einsum.jsonl" \
  | tee "$OUT/cpu_einsum.md"
