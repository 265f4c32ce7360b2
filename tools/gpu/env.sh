# Sourced by tools/gpu/bench.sh and check.sh on the lent GPU machine: unpacks the staged
# libraries and builds (tools/gpu/stage.sh) into /tmp/tf, points the loader at NVIDIA's Vulkan
# driver and sets OUT (the folder whose files come back).
#   bin LABEL   prints the folder of the staged build LABEL's binaries (unpacked on first use).
G=.gpu
T=/tmp/tf
mkdir -p "$T"
[ -d "$T/lib" ] || tar xJf "$G/lib.tar.xz" -C "$T"
export LD_LIBRARY_PATH="$T/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
export PYTHONUNBUFFERED=1

bin() {
  if [ ! -d "$T/$1/bin" ]; then
    mkdir -p "$T/$1"
    tar xJf "$G/$1/bin.tar.xz" -C "$T/$1"
  fi
  echo "$T/$1/bin"
}

# tl SECONDS CMD...: CMD under `timeout`, cut to what BUDGET (seconds since this file was
# sourced, default 570) leaves, keeping 30 s for the end; a command the budget leaves no time
# for is skipped and named in $OUT/skipped.txt. So the scripts always finish their tables and
# archives within the device tool's 10-minute limit.
T0=$(date +%s)
tl() {
  tl_left=$(( ${BUDGET:-570} - 30 - ($(date +%s) - T0) ))
  if [ "$tl_left" -lt 5 ]; then
    shift
    echo "$*" >> "$OUT/skipped.txt"
    return 124
  fi
  tl_t=$1
  shift
  [ "$tl_t" -gt "$tl_left" ] && tl_t=$tl_left
  timeout "$tl_t" "$@"
}
