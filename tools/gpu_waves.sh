#!/bin/sh
# Diagnostic run on the lent GPU (sixth session): the f64 wave model of the gemm tile choice
# (src/vulkan/kernels/gemm.cpp). 1) Every f64 product shape of the einsum instances whose
# choice the model changes, on the new choice (listed first, "default"), the size-class choice
# and the other candidates; 2) the einsum instances with those shapes, model on and off
# (TENFERRO_VK_GEMM_WAVES=0) alternately in one call; 3) the rolled slice loop (option q) in
# f64 4096^3 against the unrolled tiles, twice in alternating order.
set -u
. tools/gpu_env.sh
G="$B/tenferro_bench_vk_gemm"
C="64,128,16,8,8,fs,1 64,128,16,8,8,fs,0 64,64,8,4,4,wf,1 64,32,16,4,4,f,1 128,64,16,8,4,wfs,0 64,64,16,4,4,-,0 \
128,32,16,8,4,-,1 64,128,16,8,8,fs,2 64,128,16,8,8,fs,4"
timeout 150 "$G" sweep f64:13200x144x12 f64:144x1100x11x11 f64:177147x243x50 f64:196830x45x11 f64:39600x252x56 \
  f64:945x4536x54 f64:480x4620x243 f64:924x1215x360 f64:1728x1100x144 f64:1584x1100x11 f64:15390x114x189 \
  f64:2187x729x3 f64:207x216x17x20 f64:51x23100x17 f64:594x4320x207 f64:810x12474x154 f64:243x6561x729x9 \
  --configs "$C" --budget 9 --total 140 > "$OUT/shapes.jsonl" 2>&1
: > "$OUT/einsum.txt"
for i in 1 2; do
  for f in lm_batch_likelihood_sentence_3_12d str_nw_mera_open_26 str_nw_mera_closed_120 gm_queen5_5_3.wcsp \
    tensornetwork_permutation_light_415 lm_batch_likelihood_sentence_4_4d; do
    for w in 1 0; do
      r=$(TENFERRO_VK_GEMM_WAVES=$w timeout 60 "$B/tenferro" einsum "$B/instances/$f.json" --backend vulkan --dtype f64 \
        --path opt_size --repeat 9 --json 2>&1 | python3 -c 'import sys,json; d=json.loads(sys.stdin.read()); print("%.4f" % (d["median_seconds"]*1e3))' 2>&1)
      echo "$f waves=$w $r ms" >> "$OUT/einsum.txt"
    done
  done
done
: > "$OUT/roll.jsonl"
for i in 1 2; do
  timeout 40 "$G" sweep f64_4096 --configs "128,64,8,4,8,fq 128,64,8,4,8,f 64,128,16,8,8,fsq" --budget 30 >> "$OUT/roll.jsonl" 2>&1
  timeout 40 "$G" sweep f64_4096 --configs "128,64,8,4,8,f 128,64,8,4,8,fq 64,128,16,8,8,fsp" --budget 30 >> "$OUT/roll.jsonl" 2>&1
done
cd "$OUT" && tar czf waves.tgz shapes.jsonl einsum.txt roll.jsonl
grep '"config"' shapes.jsonl roll.jsonl | sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\).*/\1 \2 \3 \4/' | \
  awk '{ if ($1 != last) { printf "\n%s:", $1; last = $1 } printf " %s=%s", $2, $3 } END { print "" }'
cat einsum.txt
