#!/usr/bin/env bash
# Installs the Debian 12 packages tenferro needs that are missing (run as root).
# Everything comes from Debian's archive; nothing is downloaded at build time.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build ccache pkg-config git
  libopenblas-dev nlohmann-json3-dev libcli11-dev googletest libgtest-dev
  libvulkan-dev glslang-tools spirv-tools glslang-dev mesa-vulkan-drivers vulkan-validationlayers vulkan-tools doxygen
  clang-14 libclang-rt-14-dev libomp-14-dev
  python3-dev python3-venv python3-numpy python3-scipy python3-pytest
  libopenmpi-dev openmpi-bin python3-mpi4py
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "tenferro: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# wgpu-native for the WebGPU provider, from PyPI's wgpu wheel (Debian has none). Optional: a
# machine that cannot reach PyPI builds without the WebGPU provider.
bash "$(dirname "$0")/fetch-wgpu.sh" ||
  echo "tenferro: wgpu-native could not be fetched; building without the WebGPU provider" >&2
# Dawn (its WGSL compiler Tint) from PyPI's dawn-python wheel: the second compiler that checks
# every WGSL kernel (tests/webgpu/tint_check.py, in the ci stage's ctest). Optional like wgpu-native,
# but a WebGPU build without it fails that test.
bash "$(dirname "$0")/fetch-dawn.sh" ||
  echo "tenferro: dawn-python could not be fetched; the Tint check of the WebGPU kernels will fail" >&2
