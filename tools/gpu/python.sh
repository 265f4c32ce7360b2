#!/bin/sh
# The Python module on the lent GPU machine (bench/RESULTS.md, "Python module overhead"):
# bench/python_overhead.py on the GPU and on the 16-core CPU (per-op overhead above the C++ call,
# and tenferro.einsum against the staged CLI on the same instance and path), then python/tests
# (pytest) on both backends.
#
#   here:  sh tools/gpu/stage.sh build/ci && sh tools/gpu/stage_python.sh PYTHON3.12
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/python.sh [LABEL]
#          with carry [".gl", ".gpu", ".whl"]
#
# Output in $OUT/python_overhead.txt and $OUT/pytest.txt.
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site
for d in vulkan cpu; do
  tl 200 python3 bench/python_overhead.py --device $d --cli "$B/tenferro" >> "$OUT/python_overhead.txt" 2>&1
done
tl 240 python3 -m pytest -q -p no:cacheprovider python/tests > "$OUT/pytest.txt" 2>&1
tail -5 "$OUT/pytest.txt"
cat "$OUT/python_overhead.txt"
