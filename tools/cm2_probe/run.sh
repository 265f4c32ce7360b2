#!/bin/sh
# On the lent GPU (carry [".gl", "build/cm2_probe"]): capabilities, then every variant at 4096^3
# and 8192^3 (or those of $VARIANTS: name:BM:BN:threads ...), one process each.
d=build/cm2_probe
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
(cd $d && ./probe 0) 2>&1 | tee "$OUT/caps.txt"
L=${VARIANTS:-"nv_2442_128sl:128:128:256 $(cd $d && ls *.spv | grep -v '^nv_' | sed 's/\.spv$//' | awk -F_ '{print $0":"$2":"$3":"$5}')"}
for z in ${SIZES:-4096 8192}; do
  for s in $L; do
    n=${s%%:*}
    (cd $d && timeout ${TMO:-30} ./probe $z "$n.spv:${s#*:}" 2>&1 | grep -v -E '^(device|driver|ext|khr|flex)') | tee -a "$OUT/probe.txt"
  done
done
