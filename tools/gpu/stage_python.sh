#!/bin/sh
# Stages the Python module for the lent GPU machine into .whl/ (ignored by git), which the device
# tool carries: a wheel of tenferro built here for the GPU image's Python (3.12, as the device
# entry's KINDS.md lists it) and the pure-Python wheels python/tests needs beyond what that image
# has (autoray, cotengra, quimb; cytoolz for quimb). tools/gpu/python.sh installs them there.
#
#   sh tools/gpu/stage_python.sh PYTHON3.12
#
# PYTHON3.12  an interpreter of the image's minor version with nanobind, scikit-build-core and
#             NumPy installed (a venv: python3.12 -m venv V && V/bin/pip install nanobind
#             scikit-build-core numpy). The build folder is build/python312; ccache serves the
#             library's objects.
set -eu
root=$(git rev-parse --show-toplevel)
cd "$root"
py=${1:?usage: stage_python.sh PYTHON3.12}
ver=$("$py" -c 'import sys; print(f"{sys.version_info[0]}{sys.version_info[1]}")')
grep -qx '/.whl/' .git/info/exclude 2>/dev/null || echo '/.whl/' >> .git/info/exclude
rm -rf .whl
mkdir -p .whl
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
"$py" -m pip wheel -q --no-build-isolation --no-deps -w .whl -C build-dir="build/python$ver" .
# The versions tools/python_test.sh resolves here; --no-deps: the image has their other needs.
python3 -m pip download -q --no-deps --only-binary=:all: --python-version "$ver" --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d .whl autoray==0.11.0 cotengra==0.8.3 quimb==1.11.2 cytoolz==1.2.0
du -sh .whl
