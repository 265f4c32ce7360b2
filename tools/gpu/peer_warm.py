#!/usr/bin/env python3
"""Runs ../shared/tools/peer_bench.py (read-only there) after 0.5 s of back-to-back f32 4096^3
PyTorch matmuls, so that the peers are timed at the clocks a busy GPU runs at, as tenferro's
benchmarks are (an idle H200 sits at 345 MHz and light work does not raise it; see
bench/RESULTS.md). Usage: peer_warm.py PEER_BENCH.py [peer_bench arguments...]"""
import runpy, sys, time

def main():
    import torch
    x = torch.randn(4096, 4096, device="cuda")
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        torch.mm(x, x)
        torch.cuda.synchronize()
    del x
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")

if __name__ == "__main__":
    main()
