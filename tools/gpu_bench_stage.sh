#!/bin/sh
# Stages what tools/gpu_bench.sh needs into .gpubench/ (ignored by git): the benchmark
# binaries of build/release, the shared libraries they need that the GPU image lacks,
# ../shared/tools/peer_bench.py and the einsum instances.
set -eu
root=$(git rev-parse --show-toplevel)
cd "$root"
grep -qx '/.gpubench/' .git/info/exclude 2>/dev/null || echo '/.gpubench/' >> .git/info/exclude
build=${1:-build/release}
rm -rf .gpubench && mkdir -p .gpubench/lib .gpubench/instances
for b in tools/tenferro bench/tenferro_bench_vk bench/tenferro_bench_vk_gemm; do
  [ -x "$build/$b" ] && cp "$build/$b" .gpubench/
done
for l in libopenblas.so.0 libgfortran.so.5 libquadmath.so.0 libgomp.so.1; do
  cp -L "$(ldconfig -p | awk -v l=$l '$1 == l {print $NF; exit}')" .gpubench/lib/
done
cp ../shared/tools/peer_bench.py tools/summarize_bench.py .gpubench/ 2>/dev/null || true
cp tools/summarize_bench.py .gpubench/summarize.py
cp tools/peer_einsum_jax.py tools/peer_gemm_small.py tools/peer_warm.py tools/gpu_bench.sh .gpubench/
cp data/instances/*.json .gpubench/instances/
# NVIDIA's Vulkan ICD (libGLX_nvidia) needs glvnd besides the loader that ../shared/tools/gpu-prep.sh
# fetches into .gl/ (without it: "Found no drivers"); fetch the rest once (device README).
if ! ls .gl/libglvnd0_*.deb > /dev/null 2>&1; then
  lists=$(mktemp -d); mkdir -p .gl "$lists/partial"
  o="-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=$lists"
  apt-get $o update > /dev/null 2>&1
  (cd .gl && apt-get $o download libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2 > /dev/null 2>&1)
fi
# The shared libraries travel compressed (the device tool carries 64 MiB at most); the run
# scripts unpack them (tools/gpu_bench.sh).
tar cJf .gpubench/lib.tar.xz -C .gpubench lib && rm -rf .gpubench/lib
du -sh .gpubench
