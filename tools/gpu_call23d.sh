#!/bin/sh
# Twenty-third session, last call: GemmOzaki* (with the einsum step scratch test) on the H200, a
# 4096^3 matmul einsum (f64, not one of the instances) for its device peak over its live tensors
# now that each step's optional scratch is limited (the scheme's planes held it at 3.0x in the
# twenty-second session), then the figure-of-record run (tools/gpu_bench.sh: PyTorch and JAX in
# the same run). Carry [".gl", ".gpubench"].
set -u
. tools/gpu_env.sh
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
cp "$OUT/checks.txt" /tmp/checks23.txt
mkdir -p /tmp/extra
python3 - <<'PY'
import json
j = json.load(open(".gpubench/instances/bin_matmul_1024.json"))
j["name"] = "matmul_4096"
j["shapes"] = j["shapes_colmajor"] = [[4096, 4096], [4096, 4096]]
json.dump(j, open("/tmp/extra/matmul_4096.json", "w"))
PY
"$B/tenferro" einsum /tmp/extra/matmul_4096.json --backend vulkan --dtype f64 --path opt_size --repeat 7 \
  > /tmp/matmul_4096.txt 2>&1
cp /tmp/matmul_4096.txt /tmp/matmul23.txt
sh tools/gpu_bench.sh
echo "== checks"; cut -c1-300 /tmp/checks23.txt
echo "== matmul_4096 einsum"; grep -E "median|memory|time" /tmp/matmul23.txt
