#!/usr/bin/env python3
"""PyTorch (and JAX) GEMM at the small sizes (64-512), which ../shared/tools/peer_bench.py
does not time. Square n x n x n products, f32 (TF32 off) and f64, compact operands; median of
15 timed calls after 3 warm-ups, each call followed by a device synchronization (the same
method as peer_bench.py). Also "torch_stream": 50 calls in a row and one synchronization, per
call (the time of a product inside a stream of work; tenferro_bench_vk_gemm --stream times the
same way). One JSON line per case in peer_bench.py's format.
Usage: peer_gemm_small.py [--no-jax]"""
import json, sys, time

def median_ms(fn, sync, warm=3, runs=15):
    for _ in range(warm):
        fn(); sync()
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter(); fn(); sync(); ts.append((time.perf_counter() - t0) * 1e3)
    ts.sort()
    return ts[len(ts) // 2]

def main():
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    w = torch.randn(4096, 4096, device=dev)  # GPU clock warm-up, as tools/gpu/peer_warm.py
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        torch.mm(w, w); torch.cuda.synchronize()
    jax = jnp = None
    if "--no-jax" not in sys.argv:
        import jax, jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)
    for dt in ("float32", "float64"):
        for n in (64, 128, 256, 512):
            x = torch.randn(n, n, dtype=getattr(torch, dt), device=dev); y = torch.randn_like(x)
            fl = 2 * n ** 3
            ms = median_ms(lambda: torch.mm(x, y), torch.cuda.synchronize)
            print(json.dumps({"group": "gemm", "case": f"{dt}_{n}", "who": "torch", "ms": round(ms, 5),
                              "tflops": round(fl / ms / 1e9, 3)}), flush=True)
            out = torch.empty_like(x)
            def stream():
                for _ in range(50):
                    torch.mm(x, y, out=out)
            ms = median_ms(stream, torch.cuda.synchronize) / 50
            print(json.dumps({"group": "gemm", "case": f"{dt}_{n}", "who": "torch_stream", "ms": round(ms, 5),
                              "tflops": round(fl / ms / 1e9, 3)}), flush=True)
            if jax:
                f = jax.jit(lambda p, q: jnp.matmul(p, q, precision=jax.lax.Precision.HIGHEST))
                p, q = jnp.asarray(x.cpu().numpy()), jnp.asarray(y.cpu().numpy())
                out = [None]
                def run(): out[0] = f(p, q)
                ms = median_ms(run, lambda: out[0].block_until_ready())
                print(json.dumps({"group": "gemm", "case": f"{dt}_{n}", "who": "jax", "ms": round(ms, 5),
                                  "tflops": round(fl / ms / 1e9, 3)}), flush=True)

if __name__ == "__main__":
    sys.exit(main())
