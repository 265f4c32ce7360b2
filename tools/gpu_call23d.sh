#!/bin/sh
# Twenty-third session, last call (carry [".gl", ".gpubench"]):
# 1. vk_ozaki_params_test and GemmOzaki* (with the einsum step scratch test) on the H200;
# 2. the combine's k in f32: the build before ($B/old_bench_vk_gemm) against this one on f64
#    4096^3 and 2048^3 (the certified default), four alternating rounds of 7 calls (no gain;
#    not kept, bench/RESULTS.md);
# 3. a 4096^3 matmul einsum (f64, not one of the instances): its device peak over its live
#    tensors now that each step's optional scratch is limited (3.0x in the twenty-second
#    session, the scheme's planes beside the operands) and its time;
# 4. the figure-of-record run (tools/gpu_bench.sh: PyTorch and JAX in the same run).
set -u
. tools/gpu_env.sh
gtest_check vk_ozaki_params_test '*'
gtest_check vk_gemm_gpu_test 'GemmOzaki*'
cp "$OUT/checks.txt" /tmp/checks23.txt
for v in old new; do
  bin=$B/tenferro_bench_vk_gemm; [ $v = old ] && bin=$B/old_bench_vk_gemm
  timeout 60 "$bin" f64_4096 f64_2048 --reps 2 > /dev/null 2>&1
done
: > /tmp/ab23.txt
for r in 1 2 3 4; do
  for v in old new; do
    bin=$B/tenferro_bench_vk_gemm; [ $v = old ] && bin=$B/old_bench_vk_gemm
    timeout 60 "$bin" f64_4096 f64_2048 --reps 7 2>&1 | grep ' median ' | sed "s/^/$v $r /" >> /tmp/ab23.txt
  done
done
mkdir -p /tmp/extra
python3 - <<'PY'
import json
j = json.load(open(".gpubench/instances/bin_matmul_1024.json"))
j["name"] = "matmul_4096"
j["shapes"] = j["shapes_colmajor"] = [[4096, 4096], [4096, 4096]]
json.dump(j, open("/tmp/extra/matmul_4096.json", "w"))
PY
"$B/tenferro" einsum /tmp/extra/matmul_4096.json --backend vulkan --dtype f64 --path opt_size --repeat 7 \
  > /tmp/matmul23.txt 2>&1
sh tools/gpu_bench.sh
echo "== checks"; cut -c1-300 /tmp/checks23.txt
echo "== A/B (build round case ... ms TFLOP/s)"; sort -s -k3,3 /tmp/ab23.txt | awk '{print $1, $2, $3, $10, $12, $14}'
echo "== matmul_4096 einsum"; grep -v '^ *$' /tmp/matmul23.txt | tail -8
