#!/bin/sh
# The memory-bound figures on the lent GPU (bench/RESULTS.md, "Memory-bound ops and fused
# kernels"): `tenferro bench` elementwise, analytic, reduce and fused on 2^28 f32 elements and
# permute on data/instances/permutation_patterns.json, on the Vulkan device, then PyTorch and JAX
# on the same work through ../shared/tools/peer_bench.py (staged as .gpu/peer_bench.py), in one
# call.
#
#   here:  sh tools/gpu/stage.sh build/release new --no-tests
#   there: for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig; sh tools/gpu/membound.sh [LABEL]
#          with carry [".gl", ".gpu"]
#
# The fused group runs twice, in two processes sharing one empty kernel cache: the first
# process's `fused first call` row includes compiling the generated kernel, the second's reads it
# from the disk cache. analytic also runs with TENFERRO_VK_F32_VIA_F64=0 (f32 arithmetic, which
# flushes subnormals on NVIDIA) to show what the f64 evaluation costs. Tables in $OUT/*.txt, the
# peers' JSON lines in $OUT/peers.jsonl; everything is printed last. About 4 minutes on an H200.
set -u
. tools/gpu/env.sh
B=$(bin "${1:-new}")/tenferro
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv > "$OUT/gpu.txt" 2>&1
date -u > "$OUT/date.txt"
cp "$G/${1:-new}/commit.txt" "$OUT/" 2>/dev/null
n=268435456
export TENFERRO_VK_KERNEL_CACHE=/tmp/tf/kernel_cache
rm -rf "$TENFERRO_VK_KERNEL_CACHE"
for g in elementwise analytic reduce fused; do
  tl 120 "$B" bench $g --backend vulkan --elements $n > "$OUT/$g.txt" 2>&1
done
tl 60 "$B" bench fused --backend vulkan --elements $n > "$OUT/fused_cached.txt" 2>&1
tl 120 env TENFERRO_VK_F32_VIA_F64=0 "$B" bench analytic --backend vulkan --elements $n > "$OUT/analytic_f32.txt" 2>&1
tl 150 "$B" bench permute --backend vulkan --check --progress off > "$OUT/permute.txt" 2>&1
tl 240 python3 "$G/peer_bench.py" membound permute --instances data/instances > "$OUT/peers.jsonl" 2> "$OUT/peers.err"
for f in elementwise analytic analytic_f32 reduce fused fused_cached permute; do
  echo "== $f"
  cat "$OUT/$f.txt"
done
echo "== peers"
python3 - "$OUT/peers.jsonl" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    try:
        r = json.loads(line)
    except ValueError:
        continue
    print(f"{r['group']:9} {r['case']:44} {r['who']:6} {r['ms']:10.4f} ms {r.get('tbps', '')}")
PY
tar czf "$OUT/membound.tgz" -C "$OUT" --exclude membound.tgz .
