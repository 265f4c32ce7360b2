#!/usr/bin/env bash
# Builds tenferro and runs every test (what `.ci/run` calls). Stages, in this order:
#   ci      the ci preset (Release, -Werror): unit, conformance on the CPU backend and on Vulkan
#           (lavapipe when there is no GPU), eval case files, validation layer, bench smoke, the
#           installed package built into examples/;
#   python  tools/python_test.sh: the Python module built into build/venv and its pytest suite;
#   asan    the dev-asan preset (AddressSanitizer + UndefinedBehaviorSanitizer, undefined
#           behaviour fatal, the leak suppressions of tools/lsan.supp): the ci preset's tests;
#   tsan    the tsan preset (ThreadSanitizer): the concurrency tests;
#   fuzz    tools/fuzz.sh: each libFuzzer harness for TENFERRO_FUZZ_SECONDS (default 60) from its
#           seed corpus.
# Usage: tools/test.sh [STAGE...]   (default: all five; e.g. `tools/test.sh ci` for the main build)
# TENFERRO_TEST_CLEAN=1 (what .ci/run sets) removes each stage's build tree once the stage has
# run, so the run needs the disk of its largest stage, not of all five.
# Every stage's preset runs the same locally (CMakePresets.json); a failing stage fails the script
# after the others have run, so one run reports every failure.
set -euo pipefail
cd "$(dirname "$0")/.."
stages=("$@")
((${#stages[@]})) || stages=(ci python asan tsan fuzz)
bash tools/install-deps.sh
jobs=$(nproc)

stage_ci() {
  cmake --preset ci && cmake --build --preset ci -j "$jobs" && ctest --preset ci -j "$jobs"
}
stage_asan() {
  cmake --preset dev-asan && cmake --build --preset dev-asan -j "$jobs" && ctest --preset dev-asan -j "$jobs"
}
stage_tsan() {
  cmake --preset tsan && cmake --build --preset tsan -j "$jobs" && ctest --preset tsan
}
stage_fuzz() {
  TENFERRO_FUZZ_JOBS=$jobs bash tools/fuzz.sh "${TENFERRO_FUZZ_SECONDS:-60}"
}
stage_python() {
  CMAKE_BUILD_PARALLEL_LEVEL=$jobs bash tools/python_test.sh
}

# The build trees of each stage (removed under TENFERRO_TEST_CLEAN=1).
declare -A trees=([ci]=build/ci [python]="build/python build/venv" [asan]=build/dev-asan
                  [tsan]=build/tsan [fuzz]=build/fuzz)

failed=()
for s in "${stages[@]}"; do
  case "$s" in
    ci | asan | tsan | fuzz | python) ;;
    *) echo "tools/test.sh: unknown stage '$s' (ci, asan, tsan, fuzz, python)" >&2; exit 2 ;;
  esac
  echo "=== test stage $s"
  start=$SECONDS
  if "stage_$s"; then
    echo "=== test stage $s passed in $((SECONDS - start)) s"
  else
    echo "=== test stage $s FAILED after $((SECONDS - start)) s"
    failed+=("$s")
  fi
  if [[ ${TENFERRO_TEST_CLEAN:-0} == 1 ]]; then
    # shellcheck disable=SC2086  # a list of folders
    rm -rf ${trees[$s]}
  fi
done
if ((${#failed[@]})); then
  echo "tools/test.sh: failed stages: ${failed[*]}"
  exit 1
fi
echo "tools/test.sh: all stages passed (${stages[*]})"
