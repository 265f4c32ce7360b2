#!/usr/bin/env bash
# Fetches Dawn (Chrome's WebGPU, whose WGSL compiler is Tint) from PyPI's `dawn-python` wheel,
# pinned, into build/dawn-python/: the package pydawn (a ctypes binding) with this machine's
# libwebgpu_dawn only. tests/webgpu/tint_check.py compiles every WGSL kernel of the WebGPU
# provider with it (a second compiler beside wgpu-native's naga). Run by tools/install-deps.sh,
# before any build: a WebGPU build without it fails that test and says to run this script.
set -euo pipefail
cd "$(dirname "$0")/.."
version=0.3.0
dest=build/dawn-python
lib=libwebgpu_dawn_$(uname -m).so
if [[ -f $dest/version && $(cat "$dest/version") == "$version" && -f $dest/pydawn/lib/$lib ]]; then
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64 | Linux-aarch64) ;;
  *) echo "fetch-dawn.sh: no Dawn library in dawn-python for $(uname -s)-$(uname -m)" >&2; exit 0 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# pip from a throwaway venv (Debian's python3 has no pip of its own).
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  "dawn-python==$version" -d "$tmp/wheel"
python3 -m zipfile -e "$tmp"/wheel/dawn_python-*.whl "$tmp/x"
rm -rf "$dest"
mkdir -p "$dest/pydawn/lib"
cp "$tmp"/x/pydawn/*.py "$dest/pydawn/"
cp "$tmp/x/pydawn/lib/$lib" "$dest/pydawn/lib/"
cp "$tmp"/x/dawn_python-*.dist-info/licenses/LICENSE "$dest/LICENSE"
echo "$version" > "$dest/version"
echo "fetch-dawn.sh: Dawn of dawn-python $version in $dest"
