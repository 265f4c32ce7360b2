#!/bin/sh
# Stages a build for the lent GPU machine into .gpu/ (ignored by git), which the device tool
# carries beside .gl/ (the Vulkan loader: ../shared/tools/gpu-prep.sh).
#
#   sh tools/gpu/stage.sh [BUILD_DIR [LABEL [--no-tests]]]
#
# BUILD_DIR  a Release build with the Vulkan provider (default build/release).
# LABEL      the folder under .gpu/ (default "new"). Stage a second build as e.g. "before" and
#            tools/gpu/bench.sh times both, alternating, in one call.
# --no-tests only the CLI and the benchmarks (enough for bench.sh; check.sh needs the tests).
#
# .gpu/LABEL/bin.tar.xz holds the stripped CLI, benchmarks and test binaries; .gpu/lib.tar.xz
# the shared libraries the GPU image lacks (wgpu-native among them); .gpu/peer_bench.py the peers' script from
# ../shared/tools (../shared does not travel). Binaries travel compressed: the device tool
# carries 64 MiB at most.
set -eu
root=$(git rev-parse --show-toplevel)
cd "$root"
build=${1:-build/release}
label=${2:-new}
tests=1
[ "${3:-}" = --no-tests ] && tests=0
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude
[ -x "$build/tools/tenferro" ] || { echo "stage.sh: no $build/tools/tenferro; build first" >&2; exit 1; }

tmp=$(mktemp -d)
mkdir -p "$tmp/bin"
cp "$build/tools/tenferro" "$build/bench/tenferro_bench_vk" "$build/bench/tenferro_bench_vk_gemm" "$tmp/bin/"
if [ $tests = 1 ]; then
  for t in "$build"/tests/*_test "$build"/tests/vulkan/vk_*_test; do cp "$t" "$tmp/bin/"; done
fi
strip "$tmp"/bin/*
mkdir -p ".gpu/$label"
tar cf - -C "$tmp" bin | xz -T0 -6 > ".gpu/$label/bin.tar.xz"
# The commit the build is of (the device machine's copy of the tree has no reliable history).
echo "$(git rev-parse HEAD)$(git diff --quiet HEAD -- src include shaders tools tests bench || echo ' (with uncommitted changes)')" \
  > ".gpu/$label/commit.txt"
rm -rf "$tmp"

# wgpu-native, which the WebGPU provider loads at run time (tools/gpu/webgpu.sh points
# TENFERRO_WGPU_LIB at its staged copy).
wgpu=$(sed -n 's/^TENFERRO_WGPU_DIR:PATH=//p' "$build/CMakeCache.txt")/lib/libwgpu_native.so
if [ ! -f .gpu/lib.tar.xz ] || { ldd "$build/tools/tenferro" | grep -q libmpi && ! xz -dc .gpu/lib.tar.xz | tar t | grep -q libmpi; } ||
   { [ -f "$wgpu" ] && ! xz -dc .gpu/lib.tar.xz | tar t | grep -q libwgpu_native; }; then
  tmp=$(mktemp -d)
  mkdir -p "$tmp/lib"
  for l in libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 libgomp.so.1; do
    cp -L "$(ldconfig -p | awk -v l=$l '$1 == l {print $NF; exit}')" "$tmp/lib/"
  done
  # Open MPI's libraries, where the CLI links them (einsum --distributed).
  ldd "$build/tools/tenferro" | awk '$1 ~ /^lib(mpi|open-pal|open-rte|hwloc|event)/ {print $3}' |
    while read -r f; do cp -L "$f" "$tmp/lib/"; done
  if [ -f "$wgpu" ]; then cp "$wgpu" "$tmp/lib/" && strip "$tmp/lib/libwgpu_native.so"; fi
  tar cf - -C "$tmp" lib | xz -T0 -6 > .gpu/lib.tar.xz
  rm -rf "$tmp"
fi
cp ../shared/tools/peer_bench.py .gpu/

# NVIDIA's Vulkan ICD needs glvnd besides the loader that gpu-prep.sh fetches into .gl/.
if ! ls .gl/libglvnd0_*.deb > /dev/null 2>&1; then
  lists=$(mktemp -d)
  mkdir -p .gl "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update > /dev/null 2>&1
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 > /dev/null 2>&1)
  grep -qx '/.gl/' .git/info/exclude 2>/dev/null || echo '/.gl/' >> .git/info/exclude
fi
du -sh .gpu .gl
