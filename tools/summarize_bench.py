#!/usr/bin/env python3
"""Prints the short table of one GPU benchmark run (tools/gpu_bench.sh): ours vs the peers
measured in the same run. Usage: summarize_bench.py OUTDIR"""
import json, os, sys

def lines(path):
    if not os.path.exists(path):
        return []
    out = []
    for line in open(path):
        line = line.strip()
        if line.startswith("{"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
    return out

def main():
    d = sys.argv[1]
    ours = {r["op"]: r for r in lines(os.path.join(d, "vk_bench.jsonl"))}
    peers = lines(os.path.join(d, "peers.jsonl"))
    peer = {(p["group"], p["case"], p["who"]): p for p in peers}
    print("== memory-bound and overhead (ours: tenferro Vulkan; peer: PyTorch) ==")
    copy = ours.get("copy")
    rows = [("copy f32 2^28 (TB/s)", copy and copy["gbps"] / 1e3, peer.get(("membound", "copy_f32_2^28", "torch"), {}).get("tbps")),
            ("add f32 2^28 (TB/s)", ours.get("add") and ours["add"]["gbps"] / 1e3, peer.get(("membound", "add_f32_2^28", "torch"), {}).get("tbps")),
            ("upload 1 GiB (GB/s)", ours.get("upload") and ours["upload"]["gbps"], None),
            ("download 1 GiB (GB/s)", ours.get("download") and ours["download"]["gbps"], None),
            ("small-op overhead (us/op)", ours.get("overhead_small_add") and ours["overhead_small_add"]["median_us"],
             peer.get(("overhead", "us_per_small_op(2000_adds_1000_elems)", "torch"), {}).get("ms"))]
    for name, a, b in rows:
        fa = "-" if a is None else "%.3f" % a
        fb = "-" if b is None else "%.3f" % b
        print("%-28s ours %10s   torch %10s" % (name, fa, fb))
    if copy and ours.get("add"):
        print("add / device copy bandwidth (same run): %.1f%%" % ours["add"].get("pct_of_ceiling", 0))
    gp = os.path.join(d, "vk_gemm.jsonl")
    gemm = [l.rstrip() for l in open(gp)] if os.path.exists(gp) else []
    gemm = [l for l in gemm if "TFLOP/s" in l]
    if gemm:
        print("== GEMM (TFLOP/s) ==")
        for g in gemm:
            print("ours   " + " ".join(g.split()))
        for p in peers:
            if p["group"] == "gemm":
                print("%-6s %-28s %8.2f TFLOP/s" % (p["who"], p["case"], p.get("tflops", 0)))
    es = lines(os.path.join(d, "einsum.jsonl"))
    if es:
        print("== einsum f64, stored opt_size path (ms; ours Vulkan vs PyTorch+opt_einsum) ==")
        for e in es:
            t = peer.get(("einsum", e["instance"] + ":opt_size", "torch"), {}).get("ms")
            o = e["median_seconds"] * 1e3
            ratio = "" if not t else "  torch/ours %.2fx" % (t / o)
            print("%-48s ours %10.3f   torch %10s%s" % (e["instance"], o, "-" if t is None else "%.3f" % t, ratio))

if __name__ == "__main__":
    main()
