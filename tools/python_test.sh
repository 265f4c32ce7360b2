#!/usr/bin/env bash
# Builds the Python module tenferro into a venv under build/ and runs its tests (python/tests):
#   build/venv     python3 -m venv --system-site-packages (Debian's NumPy, SciPy, pytest), plus
#                  python/requirements-test.txt from PyPI, installed once;
#   build/python   the module's CMake build (scikit-build-core's build-dir; ccache serves the
#                  library's objects), so a rebuild compiles only what changed;
# then `pip install --no-build-isolation .` (with -Werror, as the ci preset) and pytest. Usage: tools/python_test.sh [PYTEST ARGS]
set -euo pipefail
cd "$(dirname "$0")/.."
py=python3
[[ -x /usr/bin/python3 ]] && py=/usr/bin/python3  # Debian's, whose packages install-deps.sh adds
venv=build/venv
if [[ ! -x $venv/bin/python ]]; then
  mkdir -p build
  "$py" -m venv --system-site-packages "$venv"
fi
constraints=build/venv-constraints.txt
# Keep the system NumPy (the one SciPy was built against) when there is one.
"$venv/bin/python" -c 'import numpy; print("numpy==" + numpy.__version__)' > "$constraints" 2>/dev/null || : > "$constraints"
"$venv/bin/python" -m pip install -q --disable-pip-version-check -c "$constraints" -r python/requirements-test.txt
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=cmake.define.TENFERRO_WERROR=ON .
# From the repository root, `import tenferro` finds the installed package (python/ is not on the path).
"$venv/bin/python" -m pytest -q -p no:cacheprovider python/tests "$@"
