#!/usr/bin/env bash
# Builds the libFuzzer harnesses (preset `fuzz`: clang-14, ASan + UBSan, fuzz/README.md) and runs
# each from its seed corpus for a bounded time: fuzz_parsers (the CLI's case-file and instance
# readers) and fuzz_ops (random op calls, CPU against Vulkan with the validation layer). Any
# finding fails the script: a crash, a sanitizer report, an input running past -timeout, a leak,
# memory past -rss_limit_mb or one allocation past it, a difference between the backends.
# The inputs found along the way go to build/fuzz/runs/<harness>-corpus (the seed corpora in
# fuzz/corpus are only read); a finding's input is written as build/fuzz/runs/<harness>-crash-*
# (or -timeout-, -leak-, -oom-) and reproduces with `build/fuzz/fuzz/fuzz_<harness> FILE`.
#
# Usage: tools/fuzz.sh [SECONDS per harness (default 60)] [HARNESS...]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}
shift || true
harnesses=("$@")
((${#harnesses[@]})) || harnesses=(parsers ops)
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${TENFERRO_FUZZ_JOBS:-2}"

runs=build/fuzz/runs
mkdir -p "$runs"
export LSAN_OPTIONS="suppressions=$PWD/tools/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1"
# Per harness: the longest one input may take (s), the memory limit (MB), the longest input
# (bytes). fuzz_ops holds lavapipe, its compiled pipelines and the validation layer.
declare -A timeout=([parsers]=30 [ops]=60) rss=([parsers]=2048 [ops]=6144) maxlen=([parsers]=8192 [ops]=512)
declare -A extra=([parsers]=-dict=fuzz/parsers.dict [ops]=)
failed=()
for h in "${harnesses[@]}"; do
  mkdir -p "$runs/$h-corpus"
  echo "== fuzz_$h: ${secs}s from fuzz/corpus/$h"
  if ! "build/fuzz/fuzz/fuzz_$h" -max_total_time="$secs" -timeout="${timeout[$h]}" -rss_limit_mb="${rss[$h]}" \
      -max_len="${maxlen[$h]}" -print_final_stats=1 -artifact_prefix="$runs/$h-" ${extra[$h]} \
      "$runs/$h-corpus" "fuzz/corpus/$h" 2>"$runs/$h.log"; then
    failed+=("$h")
    tail -n 60 "$runs/$h.log"
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb|new_units_added)|cov: ' "$runs/$h.log" | tail -n 4 || true
done
if ((${#failed[@]})); then
  echo "fuzz: FINDINGS in ${failed[*]} (inputs: $runs/<harness>-crash-*, logs: $runs/<harness>.log)"
  exit 1
fi
echo "fuzz: no finding (${harnesses[*]}, ${secs}s each)"
