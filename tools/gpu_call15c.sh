#!/bin/sh
# (Stream K was reverted after these calls: re-running needs bench/results/2026-12-02-h200-session15/streamk.patch.)
# Fifteenth session, third call (second one ran past its limit): (1) div f32 2^28
# (tenferro_bench_vk); (2) the stream-K test on the H200; (3) the build before stream K
# ($B/old_bench, 81530cc) against this one (defaults with stream K, and the same tiles without
# it), in-stream sweeps in the order old, new, new, old; (4) one einsum instance with and without
# stream K. Few files (the device returns 8).
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
T=$B/t
[ -d "$T" ] || tar xJf "$B/t.tar.xz" -C "$B"
timeout 60 "$B/tenferro_bench_vk" > /dev/null 2> "$OUT/vk_bench.txt"
timeout 90 "$T/vk_gemm_gpu_test" --gtest_filter='*StreamK*:GemmWaveModel*' > "$OUT/tests.txt" 2>&1; echo "rc=$?" >> "$OUT/tests.txt"
sw() {  # sw BIN CASE CONFIGS
  timeout 40 "$1" sweep "$2" --configs "$3" --reps 15 --budget 30 --total 30 2>&1 | grep '"config"' | sed "s|^{|{\"bin\":\"$(basename "$1")\",|" >> "$OUT/ab.jsonl"
}
set -- "f32_4096|128,128,8,16,8,fsxu" "f32_8192|128,128,8,16,8,fsxu" "c32_4096|64,128,8,8,8,wfsuly" "f64_4096|128,128,8,8,8,wfsuly"
for bin in "$B/old_bench" "$G"; do
  for cc in "$@"; do timeout 40 "$bin" sweep "${cc%%|*}" --configs "${cc#*|}" --reps 1 --budget 20 --total 20 > /dev/null 2>&1; done
done
for bin in "$B/old_bench" "$G" "$G" "$B/old_bench"; do
  for cc in "$@"; do sw "$bin" "${cc%%|*}" "${cc#*|}"; done
done
for v in 0 1 0 1; do
  s=$(date +%s%N)
  TENFERRO_VK_GEMM_STREAMK=$v timeout 60 "$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan \
    --dtype f64 --path opt_size --repeat 10 --json > "$OUT/e.json" 2>&1
  echo "sk=$v rc=$? wall_ms=$(( ($(date +%s%N) - s) / 1000000 )) $(cut -c1-200 "$OUT/e.json")" >> "$OUT/einsum.txt"
done
rm -f "$OUT/e.json"
echo "== bin case config ms tflops"
sed 's/.*"bin":"\([^"]*\)".*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),.*/\1 \2 \3 \4 \5/' "$OUT/ab.jsonl"
echo "== einsum"; cat "$OUT/einsum.txt"
echo "== vk_bench"; grep -E "^(copy|add|div)" "$OUT/vk_bench.txt"
echo "== tests"; grep -E "Failure|FAILED|PASSED|rc=" "$OUT/tests.txt" | head
