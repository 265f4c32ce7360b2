#!/bin/sh
# Twenty-second session, first call: the int8 residue kernel's shape (tools/coopmat_probe).
# Workgroups of 64-128 invocations (two or more per SM by registers) against the residue
# kernel's 256 (i8_2442_128sl), 4096^3 and 8192^3, the list forward then backward; then the
# registers of three variants from the driver's shader cache (nvdisasm). Carry [".gl",
# "build/coopmat_probe"].
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export PATH=$PATH:/usr/local/cuda/bin
d=build/coopmat_probe
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
L="i8_2442_128sl:128:128:256 i8_2242_128sl:128:64:128 i8_2242_128s:128:64:128 i8_2242_64sl:128:64:128
i8_2242_64:128:64:128 i8_2242_32:128:64:128 i8_2224_128sl:64:128:128 i8_1242_128sl:64:64:64
i8_2142_128sl:128:32:64 i8_1442_128sl:64:128:128 i8_4142_128sl:256:32:128 i8_1242_64:64:64:64"
R=$(echo $L | tr ' ' '\n' | tac | tr '\n' ' ')
for z in 4096 8192; do
  for s in $L $R; do
    n=${s%%:*}
    (cd $d && timeout 60 ./probe $z "$n.spv:${s#*:}" 2>&1 | grep -v '^device') >> "$OUT/probe.txt"
  done
done
for s in i8_2442_128sl:128:128:256 i8_2242_128sl:128:64:128 i8_2242_64:128:64:128 i8_1242_128sl:64:64:64; do
  n=${s%%:*}; c=/tmp/glc_$n; rm -rf "$c"; mkdir -p "$c"
  (cd $d && __GL_SHADER_DISK_CACHE_PATH=$c __GL_SHADER_DISK_CACHE=1 __GL_SHADER_DISK_CACHE_SKIP_CLEANUP=1 \
    timeout 60 ./probe 1024 "$n.spv:${s#*:}" > /dev/null 2>&1)
  python3 tools/sass_extract.py "$c" "/tmp/sx_$n" > /dev/null 2>&1
  for f in /tmp/sx_$n/*.code; do
    [ -f "$f" ] || continue
    nvdisasm -b SM90 "$f" > "$f.sass" 2>/dev/null
    echo "$n instr $(grep -c '/\*[0-9a-f]*\*/' "$f.sass") maxreg R$(grep -o 'R[0-9]*' "$f.sass" | tr -d R | sort -n | tail -1) STL $(grep -c STL "$f.sass") HMMA/IMMA $(grep -c 'IMMA' "$f.sass") LDSM $(grep -c LDSM "$f.sass") LDS $(grep -c 'LDS\.' "$f.sass") BAR $(grep -c 'BAR' "$f.sass")" >> "$OUT/regs.txt"
  done
done
cat "$OUT/regs.txt"
sort "$OUT/probe.txt" | awk '{print}' | head -80
