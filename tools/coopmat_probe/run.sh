#!/bin/sh
# On the lent GPU (carry [".gl", "build/coopmat_probe"]): every variant at 4096^3 and 8192^3
# (or those of $VARIANTS: name:BM:BN:threads ...).
d=build/coopmat_probe
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L="i8_2442_128s:128:128:256 i8_2442_128sp:128:128:256 i8_4242_128s:256:64:256 i8_4442_64s:256:128:512
i8_2442_64:128:128:256 i8_2442_32:128:128:256 i8_4422_32:128:128:512 i8_2244_64:128:128:128
i8_2442_64c:128:128:256 i8_2442_128sc:128:128:256
i8_2442_128g2:128:128:256 i8_2442_128g4:128:128:256 i8_2242_128g2:128:64:128 i8_2242_128g4:128:64:128
i8_1442_128g4:64:128:128 i8_4422_128g4:128:128:512"
L=${VARIANTS:-$L}
for z in 4096 8192; do
  for s in $L; do
    n=${s%%:*}
    (cd $d && timeout 60 ./probe $z "$n.spv:${s#*:}" 2>&1 | grep -v '^device') | tee -a "$OUT/coopmat_probe.txt"
  done
done
