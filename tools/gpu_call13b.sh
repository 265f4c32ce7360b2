#!/bin/sh
# Thirteenth session, second call: the first call (tools/gpu_call13a.sh) saw f64 products with a
# plain column-major C at a quarter of their speed in the machine's first process (f64 4096^3
# 6.0 TFLOP/s, then 22.6 in the next process, same pipelines), and chained C pipelines 10-20x
# slower in both processes that ran them. Which is it: the GPU's first minute, a pipeline's first
# compilation (fresh shader caches A, B, C below), or the chained pipeline's code (its machine
# code against the plain one's; compact C with the rolled tile chained_config picks)?
set -u
. tools/gpu_env.sh
export PATH=$PATH:/usr/local/cuda/bin
G="$B/tenferro_bench_vk_gemm"
cases="f64_4096 f64:540x270x136x216 f64:177147x243x50 f32_4096"
run() {  # run LABEL CACHE LAYOUT [ENV...]: one process, its own shader cache folder
  lab=$1 cache=$2 lay=$3; shift 3
  mkdir -p "/tmp/glc_$cache"
  env __GL_SHADER_DISK_CACHE_PATH=/tmp/glc_$cache __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 "$@" \
    timeout 60 "$G" $cases --reps 5 --c-layout "$lay" 2>&1 | grep ' median ' | sed "s/^/$lab /" >> "$OUT/runs.txt"
}
date +%T.%N > "$OUT/runs.txt"
run P1_fresh_cold A compact
run P2_fresh_warm B compact
run P3_cached B compact
run P4_chained_fresh C chained
run P5_chained_cached C chained
run P6_compact_cachedA A compact
date +%T.%N >> "$OUT/runs.txt"
# The rolled tiles chained_config makes, with a compact C (cached after the first round).
for i in 1 2; do
  timeout 60 "$G" sweep f64:540x270x136x216 f64_4096 --configs "64,64,8,4,4,wfy,1 64,64,8,4,4,wfyn,1 128,128,8,8,8,wfsuly,1 128,128,8,8,8,wfsulyn,1" \
    --budget 10 --total 40 --reps 5 2>&1 | grep '"config"' | sed "s/^/sweep$i /" >> "$OUT/rolled.txt"
done
sass() {  # sass NAME LAYOUT CASE CONFIG: compile CONFIG alone into its own shader cache, disassemble
  d=/tmp/glcs_$1; rm -rf "$d"; mkdir -p "$d" "$OUT/sass"
  __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    timeout 30 "$G" sweep "$3" --configs "$4" --reps 3 --budget 5 --total 5 --c-layout "$2" > /dev/null 2>&1
  python3 tools/sass_extract.py "$d" "$OUT/sass/$1" > /dev/null 2>&1
  for f in "$OUT/sass/$1"/*.code; do
    [ -f "$f" ] || continue
    nvdisasm -b SM90 "$f" > "$f.sass" 2>/dev/null
    echo "$1 $(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$f.sass") DFMA $(grep -c DFMA "$f.sass") STL $(grep -c STL "$f.sass") LDL $(grep -c LDL "$f.sass") R1 $(grep -c '\[R1' "$f.sass") BAR $(grep -c 'BAR' "$f.sass")" >> "$OUT/sass.txt"
  done
}
sass plain compact f64:540x270x136x216 64,64,8,4,4,wfyn,1
sass chained chained f64:540x270x136x216 64,64,8,4,4,wfyn,1
cat "$OUT/runs.txt" | sed 's/  */ /g' | cut -c1-150
python3 -c '
import json
for l in open("'"$OUT"'/rolled.txt"):
    tag, j = l.split(" ", 1); d = json.loads(j); print(tag, d["case"], d["config"], "%.4f ms" % d["median_ms"])'
cat "$OUT/sass.txt"
tar czf "$OUT/sass.tgz" -C "$OUT" sass && rm -rf "$OUT/sass"
