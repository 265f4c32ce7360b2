set -u
B=.gpubench; export LD_LIBRARY_PATH="$B/lib"; mkdir -p "$OUT"
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json; [ -f "$icd" ] && export VK_DRIVER_FILES="$icd"
timeout 60 "$B/tenferro_bench_vk" > "$OUT/vk_bench.jsonl" 2> "$OUT/vk_bench.txt"; echo "bench rc=$?"
timeout 20 "$B/tenferro" einsum "$B/instances/str_nw_mera_open_26.json" --backend vulkan --dtype f64 --path opt_size --repeat 5 --check 2>&1 | tail -3
tail -8 "$OUT/vk_bench.txt"
