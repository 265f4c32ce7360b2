#!/usr/bin/env bash
# Fetches wgpu-native (the WebGPU provider's library, loaded at run time with dlopen) from PyPI's
# `wgpu` wheel, pinned, into build/wgpu-native/: lib/libwgpu_native.so and include/webgpu.h,
# include/wgpu.h. Run by tools/install-deps.sh; nothing is downloaded at build time, and a build
# without it has no WebGPU provider (`tenferro devices` says why).
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.32.0
dest=build/wgpu-native
if [[ -f $dest/version && $(cat "$dest/version") == "$version" && -f $dest/lib/libwgpu_native.so ]]; then
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=manylinux_2_28_x86_64 ;;
  Linux-aarch64) platform=manylinux_2_28_aarch64 ;;
  *) echo "fetch-wgpu.sh: no wgpu wheel for $(uname -s)-$(uname -m); the WebGPU provider is not built" >&2; exit 0 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pip from a throwaway venv (Debian's python3 has no pip of its own).
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --platform "$platform" "wgpu==$version" -d "$tmp/wheel"
python3 -m zipfile -e "$tmp"/wheel/wgpu-*.whl "$tmp/x"
mkdir -p "$dest/lib" "$dest/include"
cp "$tmp/x/wgpu/resources/libwgpu_native-release.so" "$dest/lib/libwgpu_native.so"
cp "$tmp/x/wgpu/resources/webgpu.h" "$tmp/x/wgpu/resources/wgpu.h" "$dest/include/"
echo "$version" > "$dest/version"
echo "fetch-wgpu.sh: wgpu-native of wgpu $version in $dest"
