# Sourced by the run scripts on the lent GPU (tools/gpu_bench.sh, tools/gpu_bench_mid.sh): the
# staged binaries' folder B (shared libraries unpacked on first use), NVIDIA's Vulkan driver,
# the results folder OUT, and einsum_ab_builds (below: two staged CLIs, alternating).
B=.gpubench
[ -f "$B/lib.tar.xz" ] && [ ! -d "$B/lib" ] && tar xJf "$B/lib.tar.xz" -C "$B"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
export PYTHONUNBUFFERED=1

# einsum_ab_builds FILE REPEAT ROUNDS INSTANCE...: the CLI staged as $B/old_tenferro ("old")
# against $B/tenferro ("new"): per instance one untimed call of each, then ROUNDS rounds of one
# call each (f64, stored opt_size path, median of REPEAT), JSON lines with a "value" field
# appended to FILE; `python3 tools/einsum_ab_table.py FILE "old new"` prints the table.
ab_cli() { if [ "$1" = old ]; then echo "$B/old_tenferro"; else echo "$B/tenferro"; fi; }
einsum_ab_builds() {
  ab_file=$1 ab_repeat=$2 ab_rounds=$3
  shift 3
  for ab_i in "$@"; do
    for ab_v in old new; do
      timeout 60 "$(ab_cli $ab_v)" einsum "$B/instances/$ab_i.json" --backend vulkan --dtype f64 \
        --path opt_size --repeat 3 > /dev/null 2>&1
    done
    ab_r=0
    while [ $ab_r -lt "$ab_rounds" ]; do
      for ab_v in old new; do
        timeout 60 "$(ab_cli $ab_v)" einsum "$B/instances/$ab_i.json" --backend vulkan --dtype f64 \
          --path opt_size --repeat "$ab_repeat" --json | sed "s/^{/{\"value\":\"$ab_v\",/" >> "$ab_file" 2>/dev/null
      done
      ab_r=$((ab_r + 1))
    done
  done
}

# gtest_check BINARY FILTER: the test binary staged in $B/t (t.tar.xz) with a gtest filter, one
# verdict line appended to $OUT/checks.txt.
gtest_check() {
  [ -d "$B/t" ] || tar xJf "$B/t.tar.xz" -C "$B"
  timeout 150 "$B/t/$1" --gtest_filter="$2" > "$OUT/test.log" 2>&1
  echo "$1 $2 rc=$? $(grep -E '^\[  (PASSED|FAILED) |Failure' "$OUT/test.log" | head -8 | tr '\n' ' ')" >> "$OUT/checks.txt"
  rm -f "$OUT/test.log"
}

# ozaki_rounds "CASES" "SETTING...": tenferro_bench_vk_gemm on CASES (10 timed calls each), one
# process per setting, two orders (the second with CASES reversed), appended to $OUT/gemm.txt
# after one untimed process. A setting N runs with TENFERRO_VK_GEMM_OZAKI=N (the time model
# decides; 0 = the FMA kernels), N:S with --ozaki-skip N:S (the scheme forced, passes S skipped).
ozaki_rounds() {
  oz_cases=$1
  timeout 60 "$B/tenferro_bench_vk_gemm" $oz_cases --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1
  for oz_o in a b; do
    for oz_s in $2; do
      echo "== ozaki=$oz_s order $oz_o" >> "$OUT/gemm.txt"
      case $oz_s in
        *:*) timeout 90 "$B/tenferro_bench_vk_gemm" $oz_cases --reps 10 --ozaki-skip "$oz_s" >> "$OUT/gemm.txt" 2>&1 ;;
        *) TENFERRO_VK_GEMM_OZAKI=$oz_s timeout 90 "$B/tenferro_bench_vk_gemm" $oz_cases --reps 10 >> "$OUT/gemm.txt" 2>&1 ;;
      esac
    done
    oz_cases=$(echo $oz_cases | tr ' ' '\n' | tac | tr '\n' ' ')
  done
}

# gemm_summary: the settings and TFLOP/s lines of $OUT/gemm.txt, shortened.
gemm_summary() {
  grep -E "^==|TFLOP" "$OUT/gemm.txt" | sed 's/ M=.*tile=[^ ]* [^ ]*//; s/ (best [^)]*)//; s/  check / /' | cut -c1-110
}

# gemm_peers_report: PyTorch's GEMM figures in the same call (peer_bench.py gemm --no-jax, to
# $OUT/peers.jsonl), then the checks, gemm_summary and the peers' f64 lines.
gemm_peers_report() {
  timeout 150 python3 "$B/peer_bench.py" gemm --no-jax > "$OUT/peers.jsonl" 2> "$OUT/peers_err.txt"
  echo "== checks"; cut -c1-300 "$OUT/checks.txt"
  echo "== gemm"; gemm_summary
  echo "== peers"; grep -E "float64" "$OUT/peers.jsonl" | cut -c1-200
}

# sweep_summary FILE: per case of a `tenferro_bench_vk_gemm sweep` JSON-lines file, the default
# configuration (the first run) and its median, then the fastest seven (ms; "!" = wrong result).
sweep_summary() {
  python3 - "$1" <<'PY'
import json, sys
rows = {}
for l in open(sys.argv[1]):
    try: j = json.loads(l)
    except Exception: continue
    if "config" in j and "median_ms" in j: rows.setdefault(j["case"], []).append((j["median_ms"], j["config"], j.get("ok")))
for c, r in rows.items():
    print(c, "default", r[0][1], r[0][0], "|", " ".join(f"{cfg}={ms:.4f}{'' if ok else '!'}" for ms, cfg, ok in sorted(r)[:7]))
PY
}

# ab_gemm CASES ROUNDS [alt]: $B/old_bench_vk_gemm ("old") against $B/tenferro_bench_vk_gemm
# ("new") on CASES: one untimed process of each, then ROUNDS alternating rounds of 7 timed calls
# (old first; with "alt", new first in even rounds), the median lines prefixed "build round"
# appended to $OUT/ab.txt; ab_gemm_table prints them by case (build round case ms TFLOP/s check).
ab_bin() { if [ "$1" = new ]; then echo "$B/tenferro_bench_vk_gemm"; else echo "$B/$1_bench_vk_gemm"; fi; }
ab_gemm() {
  for ab_v in old new; do timeout 90 "$(ab_bin $ab_v)" $1 --reps 2 > /dev/null 2>&1; done
  ab_r=1
  while [ $ab_r -le "$2" ]; do
    ab_order="old new"
    [ "${3:-}" = alt ] && [ $((ab_r % 2)) -eq 0 ] && ab_order="new old"
    for ab_v in $ab_order; do
      timeout 150 "$(ab_bin $ab_v)" $1 --reps 7 2>&1 | grep ' median ' | sed "s/^/$ab_v $ab_r /" >> "$OUT/ab.txt"
    done
    ab_r=$((ab_r + 1))
  done
}
ab_gemm_table() { sort -s -k3,3 "$OUT/ab.txt" | awk '{print $1, $2, $3, $12, $14, $NF}'; }

# bench_vk_modes FILE ROUNDS TIMEOUT MODE...: per round, tenferro_bench_vk once per
# TENFERRO_VK_F32_VIA_F64 mode (alternating), each run headed "== round R ...=M" in FILE
# (thirtieth session's calls 2, 3, 5).
bench_vk_modes() {
  bvm_file=$1 bvm_rounds=$2 bvm_timeout=$3
  shift 3
  bvm_r=1
  while [ $bvm_r -le "$bvm_rounds" ]; do
    for bvm_m in "$@"; do
      echo "== round $bvm_r TENFERRO_VK_F32_VIA_F64=$bvm_m" >> "$bvm_file"
      TENFERRO_VK_F32_VIA_F64=$bvm_m timeout "$bvm_timeout" "$B/tenferro_bench_vk" >> "$bvm_file" 2>&1
    done
    bvm_r=$((bvm_r + 1))
  done
}
