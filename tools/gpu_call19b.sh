#!/bin/sh
# Nineteenth session, second call: the combine pass in two forms, one output per invocation
# ("new", staged as tenferro_bench_vk_gemm: call 1's build) and four per invocation with every
# load hoisted ("alt", this build), against b33b2d7 ("old"): f64 4096^3 with 14 moduli forced,
# combine only (14:3) and whole (14:0), two orders; GemmOzakiTest (alt); nvdisasm of call 1's
# passes (.gpubench/codes, extracted locally by tools/sass_extract.py); a tile sweep of
# str_nw_mera_closed_120's batched product 540 x 270 x 136 x 216 (f64). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*:OzakiParams*'
bin() { case $1 in old) echo "$B/old_tenferro_bench_vk_gemm" ;; alt) echo "$B/alt_tenferro_bench_vk_gemm" ;; *) echo "$B/tenferro_bench_vk_gemm" ;; esac; }
for v in old new alt; do timeout 60 "$(bin $v)" f64_4096 --reps 1 --ozaki-skip 14:0 > /dev/null 2>&1; done
for o in a b; do
  vs="old new alt"; [ $o = b ] && vs="alt new old"
  for v in $vs; do
    for s in 14:3 14:0; do
      echo "== $v ozaki=$s order $o" >> "$OUT/gemm.txt"
      timeout 90 "$(bin $v)" f64_4096 --reps 10 --ozaki-skip "$s" >> "$OUT/gemm.txt" 2>&1
    done
  done
done
mkdir -p /tmp/sass
for f in "$B"/codes/*.code; do
  g=/tmp/sass/$(basename "$f").sass
  /usr/local/cuda/bin/nvdisasm -b SM90 "$f" > "$g" 2>> "$OUT/sass.txt"
  echo "$(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$g") LDL $(grep -c LDL "$g") I2F $(grep -c 'I2F' "$g") LDG $(grep -c LDG "$g") STG $(grep -c STG "$g") CALL $(grep -c CALL "$g")" >> "$OUT/sass.txt"
done
tar cJf "$OUT/sass.tar.xz" -C /tmp sass
timeout 120 "$B/tenferro_bench_vk_gemm" sweep f64:540x270x136x216 --reps 10 --configs "64,64,16,4,4,wfy,1 64,64,8,4,4,wfuy,1 64,32,16,4,4,wfuy,1 32,64,16,4,4,wfy,1 128,64,16,8,8,wfsuy,1 64,128,16,8,8,fs,1 32,32,8,4,4,wy,1 32,32,16,4,4,wfy,1 128,32,16,4,4,wfy,1" > "$OUT/mera_sweep.jsonl" 2>&1
echo "== checks"; cut -c1-300 "$OUT/checks.txt"
echo "== gemm"; gemm_summary
echo "== sass"; cat "$OUT/sass.txt"
echo "== sweep"; grep -o '"config":"[^"]*"\|"median_ms":[0-9.e-]*\|"tflops":[0-9.]*' "$OUT/mera_sweep.jsonl" | paste - - - | head -20
