# Sourced by the eighth session's sweep scripts (tools/gpu_lm.sh, tools/gpu_tiles8.sh) after
# tools/gpu_env.sh. sweep2 NAME "CASES" "CONFIGS" SECONDS sweeps the configurations in two
# opposite orders into $OUT/NAME_{a,b}.jsonl (the H200 has slow periods of several seconds: a
# figure counts when both orders agree); summarize2 writes $OUT/sweeps.txt (case, config, ms,
# TFLOP/s of order a | of order b; WRONG on a failed check) and $OUT/defaults.txt, packs the
# JSON lines into $OUT/raw.tgz and prints both tables.
G="$B/tenferro_bench_vk_gemm"
# warm CASE "CONFIGS": one untimed pass that compiles every pipeline first (a pipeline's first
# compilation ran slower: 13.8 vs 22.3 TFLOP/s, ninth session).
warm() { timeout 60 "$G" sweep "$1" --configs "$2" --reps 1 --budget 20 --total 20 > /dev/null 2>&1; }
rev() { echo "$1" | tr ' ' '\n' | tac | tr '\n' ' '; }
sweep2() {
  timeout $(($4 + 10)) "$G" sweep $2 --configs "$3" --reps 15 --budget $4 --total $4 > "$OUT/$1_a.jsonl" 2>&1
  timeout $(($4 + 10)) "$G" sweep $2 --configs "$(rev "$3")" --reps 15 --budget $4 --total $4 > "$OUT/$1_b.jsonl" 2>&1
}
summarize2() {
  cat "$OUT"/*_a.jsonl "$OUT"/*_b.jsonl | grep '"config"' | \
    sed 's/.*"case":"\([^"]*\)","config":"\([^"]*\)","median_ms":\([^,]*\),.*"tflops":\([^,]*\),"ok":\([a-z]*\).*/\1 \2 \3 \4 \5/' | \
    awk '{ k = $1 " " $2; if (!(k in a)) { a[k] = $3 " " $4; order[++n] = k } else b[k] = $3 " " $4; if ($5 != "true") bad[k] = 1 }
         END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s %s | %s%s\n", k, a[k], b[k], (k in bad) ? " WRONG" : "" } }' \
    > "$OUT/sweeps.txt"
  grep -h '"best"' "$OUT"/*_a.jsonl | sed 's/"configs_listed.*//' > "$OUT/defaults.txt"
  (cd "$OUT" && tar czf raw.tgz *.jsonl && rm -f *.jsonl)
  echo "== defaults (order a)"; cat "$OUT/defaults.txt"
  echo "== case config ms tflops (order a) | (order b)"; cat "$OUT/sweeps.txt"
}
