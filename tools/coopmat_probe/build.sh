#!/bin/sh
# Builds the probe and its shader variants into build/coopmat_probe/ (README.md).
set -eu
root=$(git rev-parse --show-toplevel)
src=$root/tools/coopmat_probe
out=$root/build/coopmat_probe
mkdir -p "$out"
g++ -O2 -std=c++20 "$src/probe.cpp" -o "$out/probe" -lvulkan
# name WM WN FM FN BK suffix [macros]
v() {
  n=i8_$1$2$3$4_$5$6
  glslangValidator -V --target-env vulkan1.2 -DWM=$1 -DWN=$2 -DFM=$3 -DFN=$4 -DBK=$5 ${7:-} \
    "$src/i8mm.comp" -o "$out/$n.spv" > /dev/null
  spirv-val --target-env vulkan1.2 "$out/$n.spv"
}
v 2 4 4 2 128 s -DSB
v 2 4 4 2 128 sp "-DSB -DPF"
v 4 2 4 2 128 s -DSB
v 4 4 4 2 64 s -DSB
v 2 4 4 2 64 ""
v 2 4 4 2 32 ""
v 4 4 2 2 32 ""
v 2 2 4 4 64 ""
v 2 4 4 2 64 c -DCOMPUTE_ONLY
v 2 4 4 2 128 sc "-DSB -DCOMPUTE_ONLY"
v 2 4 4 2 128 g2 "-DGLOBAL -DPD=2"
v 2 4 4 2 128 g4 "-DGLOBAL -DPD=4"
v 2 2 4 2 128 g2 "-DGLOBAL -DPD=2"
v 2 2 4 2 128 g4 "-DGLOBAL -DPD=4"
v 1 4 4 2 128 g4 "-DGLOBAL -DPD=4"
v 4 4 2 2 128 g4 "-DGLOBAL -DPD=4"
v 2 4 4 2 64 s -DSB
v 4 2 2 4 128 s -DSB
v 2 4 2 4 128 s -DSB
v 2 4 4 2 128 sl "-DSB -DLATE"
# Twenty-second session: workgroups of 64-128 invocations (two or more per SM by registers)
v 2 2 4 2 128 sl "-DSB -DLATE"
v 2 2 4 2 128 s -DSB
v 2 2 4 2 64 sl "-DSB -DLATE"
v 2 2 4 2 64 ""
v 2 2 4 2 32 ""
v 2 2 2 4 128 sl "-DSB -DLATE"
v 1 2 4 2 128 sl "-DSB -DLATE"
v 2 1 4 2 128 sl "-DSB -DLATE"
v 1 4 4 2 128 sl "-DSB -DLATE"
v 4 1 4 2 128 sl "-DSB -DLATE"
v 1 2 4 2 64 ""
echo "built $out"
