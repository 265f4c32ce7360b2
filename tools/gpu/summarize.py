#!/usr/bin/env python3
"""Prints the short tables of one build's figures in a GPU benchmark run (tools/gpu/bench.sh):
ours against the peers measured in the same run. Usage: summarize.py LABEL_DIR [PEERS.jsonl]
(the peers default to LABEL_DIR/../peers.jsonl)."""
import json, os, re, sys

def lines(path):
    out = []
    if os.path.exists(path):
        for line in open(path):
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out

def fmt(x, f="%.3f"):
    return "-" if x is None else f % x

def main():
    d = sys.argv[1]
    ours = {r["op"]: r for r in lines(os.path.join(d, "vk_bench.jsonl"))}
    peers = lines(sys.argv[2] if len(sys.argv) > 2 else os.path.join(d, os.pardir, "peers.jsonl"))
    peer = {(p["group"], p["case"], p["who"]): p for p in peers}
    def pv(g, c, w, k):
        return peer.get((g, c, w), {}).get(k)
    print("== memory-bound and overhead (ours: tenferro Vulkan; peer: PyTorch, same run) ==")
    copy = ours.get("copy")
    rows = [("copy f32 2^28 (TB/s)", copy and copy["gbps"] / 1e3, pv("membound", "copy_f32_2^28", "torch", "tbps")),
            ("add f32 2^28 (TB/s)", ours.get("add") and ours["add"]["gbps"] / 1e3, pv("membound", "add_f32_2^28", "torch", "tbps")),
            ("upload 1 GiB (GB/s)", ours.get("upload") and ours["upload"]["gbps"], None),
            ("download 1 GiB (GB/s)", ours.get("download") and ours["download"]["gbps"], None),
            ("small-op overhead (us/op)", ours.get("overhead_small_add") and ours["overhead_small_add"]["median_us"],
             pv("overhead", "us_per_small_op(2000_adds_1000_elems)", "torch", "ms")),
            ("  of which recording (us/op)", ours.get("overhead_small_add_record") and ours["overhead_small_add_record"]["median_us"], None)]
    for name, a, b in rows:
        print("%-30s ours %10s   torch %10s" % (name, fmt(a), fmt(b)))
    if copy and ours.get("add"):
        print("add / device copy bandwidth (same run): %.1f%%" % (100.0 * ours["add"]["gbps"] / copy["gbps"]))
    # GEMM: our text lines "case dtype M=.. ... median X ms  Y TFLOP/s"
    gp = os.path.join(d, "vk_gemm.txt")
    names = {"f32_4096": "float32_4096", "f32_8192": "float32_8192", "f64_4096": "float64_4096",
             "c32_4096": "complex64_4096", "c64_2048": "complex128_2048", "f64_batched": "bmm_float64_b1024_256"}
    for n in (64, 128, 256, 512):
        names["f32_%d" % n] = "float32_%d" % n
        names["f64_%d" % n] = "float64_%d" % n
    if os.path.exists(gp):
        print("== GEMM (ours Vulkan; PyTorch / JAX same run) ==")
        print("%-12s %10s %10s %10s %10s %8s" % ("case", "ours ms", "TFLOP/s", "torch ms", "jax ms", "torch/ours"))
        # vk_gemm_3m.txt: the complex cases in the opt-in 3-multiply form (TENFERRO_VK_GEMM_3M=1).
        for path, tag in ((gp, ""), (os.path.join(d, "vk_gemm_3m.txt"), " 3M")):
            for l in (open(path) if os.path.exists(path) else []):
                m = re.match(r"(\S+)\s+\S+\s+M=.*median ([\d.]+) ms\s+([\d.]+) TFLOP/s", l)
                if not m:
                    continue
                c, ms, tf = m.group(1), float(m.group(2)), float(m.group(3))
                t = pv("gemm", names.get(c, c), "torch", "ms")
                j = pv("gemm", names.get(c, c), "jax", "ms")
                print("%-12s %10.4f %10.2f %10s %10s %8s" % (c + tag, ms, tf, fmt(t, "%.4f"), fmt(j, "%.4f"),
                                                            "-" if t is None else "%.2f" % (t / ms)))
    sp = os.path.join(d, "vk_gemm_stream.txt")
    if os.path.exists(sp):
        print("== small GEMM per call inside a stream of 50 (ours --stream; PyTorch torch_stream) ==")
        for l in open(sp):
            m = re.match(r"(\S+)\s+\S+\s+M=.*median ([\d.]+) ms\s+([\d.]+) TFLOP/s", l)
            if not m:
                continue
            c, ms = m.group(1), float(m.group(2))
            t = pv("gemm", names.get(c, c), "torch_stream", "ms")
            print("%-12s %10.4f %10s %8s" % (c, ms, fmt(t, "%.4f"), "-" if t is None else "%.2f" % (t / ms)))
    es = lines(os.path.join(d, "einsum.jsonl"))
    if es:
        print("== einsum f64, stored opt_size path (ms; ours Vulkan vs PyTorch+opt_einsum and JAX, same run) ==")
        print("%-52s %9s %9s %9s %7s %5s  %s" % ("instance", "ours", "torch", "jax", "t/ours", "check", "GPU us per run: family=us/dispatches, idle"))
        for e in es:
            t = pv("einsum", e["instance"] + ":opt_size", "torch", "ms")
            j = pv("einsum", e["instance"] + ":opt_size", "jax", "ms")
            o = e["median_s"] * 1e3
            p = e.get("profile_per_run", {})
            fam = " ".join("%s=%.0f/%d" % (k, v["gpu_s"] * 1e6, v["dispatches"]) for k, v in p.get("families", {}).items())
            idle = (p.get("span_s", 0) - p.get("busy_s", 0)) * 1e6
            print("%-52s %9.3f %9s %9s %7s %5s  %s idle=%.0f" % (e["instance"], o, fmt(t), fmt(j),
                  "-" if t is None else "%.2f" % (t / o), str(e.get("check", {}).get("ok", "-")), fam, idle))

if __name__ == "__main__":
    main()
