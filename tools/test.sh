#!/usr/bin/env bash
# Builds tenferro (CI preset: Release, -Werror) and runs every test: unit, conformance on the
# CPU backend and on Vulkan (lavapipe when there is no GPU), eval case files, bench smoke.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/install-deps.sh
jobs=$(nproc)
cmake --preset ci
cmake --build --preset ci -j "$jobs"
ctest --preset ci -j "$jobs"
