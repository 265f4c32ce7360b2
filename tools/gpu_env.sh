# Sourced by the run scripts on the lent GPU (tools/gpu_bench.sh, tools/gpu_bench_mid.sh): the
# staged binaries' folder B (shared libraries unpacked on first use), NVIDIA's Vulkan driver,
# and the results folder OUT.
B=.gpubench
[ -f "$B/lib.tar.xz" ] && [ ! -d "$B/lib" ] && tar xJf "$B/lib.tar.xz" -C "$B"
export LD_LIBRARY_PATH="$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
export PYTHONUNBUFFERED=1
