#!/bin/sh
# Ninth session: the lean interior loop (l, TFG_SCHED_LEAN: one address per operand in the
# interior loop) against the defaults, two orders (tools/gpu_sweep2.sh); then the machine code
# NVIDIA's driver made of the f64 large tile with and without l (tools/sass_extract.py,
# nvdisasm): registers, spills (STL / LDL, and spills to shared memory: STS / LDS [R1+...]).
set -u
. tools/gpu_env.sh
. tools/gpu_sweep2.sh
export PATH=$PATH:/usr/local/cuda/bin
sass() {  # sass NAME CASE CONFIG: compile and run CONFIG once with its own shader cache
  d=/tmp/glc_$1; rm -rf "$d"; mkdir -p "$d" "$OUT/sass"
  __GL_SHADER_DISK_CACHE_PATH=$d __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    "$G" sweep "$2" --configs "$3" --reps 3 --budget 5 --total 5 > /dev/null 2>&1
  find "$d" -name '*.bin' -exec cp {} "$OUT/sass/$1.bin" \;
  python3 tools/sass_extract.py "$d" "$OUT/sass/$1" > /dev/null 2>&1
  for f in "$OUT/sass/$1"/*.code; do
    [ -f "$f" ] || continue
    nvdisasm -b SM90 "$f" > "$f.sass" 2>/dev/null
    echo "$1 $(basename $f) instr $(grep -c '/\*[0-9a-f]*\*/' "$f.sass") DFMA $(grep -c DFMA "$f.sass") FFMA $(grep -c FFMA "$f.sass") STL $(grep -c STL "$f.sass") LDL $(grep -c LDL "$f.sass") R1spill $(grep -c '\[R1' "$f.sass")"
  done
}
for f in .gpubench/codes/*.code; do  # code sections extracted here from an earlier call's caches
  [ -f "$f" ] && mkdir -p "$OUT/dis" && nvdisasm -b SM90 "$f" > "$OUT/dis/$(basename $f).sass" 2>&1
done
python3 -c 'import zstandard' 2>&1 | tail -1; which zstd
sass f64_fsu f64_4096 64,128,16,8,8,fsu
sass f64_fsul f64_4096 64,128,16,8,8,fsul
sass c64_ful c64_2048 64,64,8,4,8,ful
sass c32_wful c32_4096 128,128,8,8,4,wful
sweep2 f64 "f64_4096 f64_batched f64_2048" "64,128,16,8,8,fsu 64,128,16,8,8,fsul 128,128,8,8,8,fsul 128,64,8,4,8,fu 128,64,8,4,8,ful" 70
sweep2 c64 "c64_2048" "64,64,8,4,8,fu 64,64,8,4,8,ful" 25
sweep2 c32 "c32_4096" "128,128,8,8,4,wfu 128,128,8,8,4,wful" 25
sweep2 f32 "f32_4096 f32_8192" "128,256,8,8,16,fsu 128,256,8,8,16,fsul" 40
summarize2
