#!/usr/bin/env python3
"""JAX (and PyTorch) peer for the einsum figures (../shared/tools/peer_bench.py times only
PyTorch in f64 for einsum).

For each instance: jax.jit(jnp.einsum(format_string, *ops, optimize=<stored path>)) in --dtype
(default f64; x64 on, precision HIGHEST), random operands rand*0.5+0.5 as peer_bench.py uses
(complex: the same plus 0.5j times another draw), compile excluded (first call), median of 7
timed calls after 2 warm-ups, each ended with block_until_ready. With --who jax,torch also
PyTorch: opt_einsum.contract(..., optimize=<stored path>, backend="torch") on CUDA tensors of
the dtype (TF32 off), each call ended with torch.cuda.synchronize(). An instance whose JAX
compile takes longer than --compile-limit seconds is reported as skipped (compile time is not
our figure). One JSON line per instance, strategy and peer, in peer_bench.py's format plus the
dtype: {"group": "einsum", "case": NAME:STRAT, "who": "jax", "dtype": "f64", "ms": ...}.
Usage: peer_einsum_jax.py --instances DIR [--dtype f32] [--who jax,torch] [NAME ...]"""
import argparse, glob, json, os, sys, time

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--instances", required=True)
    ap.add_argument("--strategies", default="opt_size")
    ap.add_argument("--compile-limit", type=float, default=40.0)
    ap.add_argument("--dtype", default="f64", choices=["f32", "f64", "c32", "c64"])
    ap.add_argument("--who", default="jax", help="jax, torch or jax,torch")
    a = ap.parse_args()
    import numpy as np, jax, jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
    np_dtype = {"f32": np.float32, "f64": np.float64, "c32": np.complex64, "c64": np.complex128}[a.dtype]
    who = a.who.split(",")

    def operand(shape):
        x = rng.random(shape) * 0.5 + 0.5
        if a.dtype in ("c32", "c64"):
            x = x + 0.5j * (rng.random(shape) * 0.5 + 0.5)
        return x.astype(np_dtype)

    def median_ms(call):
        for _ in range(2):
            call()
        ts = []
        for _ in range(7):
            t0 = time.perf_counter()
            call()
            ts.append((time.perf_counter() - t0) * 1e3)
        ts.sort()
        return round(ts[len(ts) // 2], 4)
    # GPU clock warm-up (as tools/gpu/peer_warm.py does for PyTorch): 0.5 s of f32 4096^3 matmuls.
    w = jnp.ones((4096, 4096), jnp.float32)
    mm = jax.jit(lambda p: p @ p)
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 0.5:
        mm(w).block_until_ready()
    for fn in sorted(glob.glob(os.path.join(a.instances, "*.json"))):
        inst = json.load(open(fn))
        if "format_string" not in inst or (a.names and inst["name"] not in a.names):
            continue
        for strat in a.strategies.split(","):
            path = [tuple(s) for s in inst["paths"][strat]["path"]]
            host = [operand(s) for s in inst["shapes"]]
            case = inst["name"] + ":" + strat
            if "torch" in who:
                import torch, opt_einsum
                torch.backends.cuda.matmul.allow_tf32 = False
                tops = [torch.from_numpy(x).cuda() for x in host]
                def torch_call():
                    opt_einsum.contract(inst["format_string"], *tops, optimize=path, backend="torch")
                    torch.cuda.synchronize()
                try:
                    print(json.dumps({"group": "einsum", "case": case, "who": "torch", "dtype": a.dtype,
                                      "ms": median_ms(torch_call)}), flush=True)
                except Exception as e:  # report, never hide
                    print(json.dumps({"group": "einsum", "case": case, "who": "torch", "dtype": a.dtype,
                                      "error": str(e)[:200]}), flush=True)
            if "jax" not in who:
                continue
            ops = [jnp.asarray(x) for x in host]
            f = jax.jit(lambda *xs: jnp.einsum(inst["format_string"], *xs, optimize=path,
                                               precision=jax.lax.Precision.HIGHEST))
            try:
                t0 = time.perf_counter()
                f(*ops).block_until_ready()
                compile_s = time.perf_counter() - t0
            except Exception as e:  # report, never hide
                print(json.dumps({"group": "einsum", "case": case, "who": "jax", "dtype": a.dtype,
                                  "error": str(e)[:200]}), flush=True)
                continue
            if compile_s > a.compile_limit:
                print(json.dumps({"group": "einsum", "case": case, "who": "jax", "dtype": a.dtype,
                                  "skipped": "compile %.1f s" % compile_s}), flush=True)
                continue
            print(json.dumps({"group": "einsum", "case": case, "who": "jax", "dtype": a.dtype,
                              "ms": median_ms(lambda: f(*ops).block_until_ready()),
                              "compile_s": round(compile_s, 2)}), flush=True)

if __name__ == "__main__":
    sys.exit(main())
