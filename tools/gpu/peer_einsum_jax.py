#!/usr/bin/env python3
"""JAX peer for the einsum figures (../shared/tools/peer_bench.py times only PyTorch for einsum).

For each instance: jax.jit(jnp.einsum(format_string, *ops, optimize=<stored path>)) in f64
(x64 on, precision HIGHEST), random operands rand*0.5+0.5 as peer_bench.py uses, compile
excluded (first call), median of 7 timed calls after 2 warm-ups, each ended with
block_until_ready. An instance whose compile takes longer than --compile-limit seconds is
reported as skipped (compile time is not our figure). One JSON line per instance and strategy,
in peer_bench.py's format: {"group": "einsum", "case": NAME:STRAT, "who": "jax", "ms": ...}.
Usage: peer_einsum_jax.py --instances DIR [NAME ...]"""
import argparse, glob, json, os, sys, time

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--instances", required=True)
    ap.add_argument("--strategies", default="opt_size")
    ap.add_argument("--compile-limit", type=float, default=40.0)
    a = ap.parse_args()
    import numpy as np, jax, jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(0)
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
            ops = [jnp.asarray(rng.random(s) * 0.5 + 0.5) for s in inst["shapes"]]
            f = jax.jit(lambda *xs: jnp.einsum(inst["format_string"], *xs, optimize=path,
                                               precision=jax.lax.Precision.HIGHEST))
            case = inst["name"] + ":" + strat
            try:
                t0 = time.perf_counter()
                f(*ops).block_until_ready()
                compile_s = time.perf_counter() - t0
            except Exception as e:  # report, never hide
                print(json.dumps({"group": "einsum", "case": case, "who": "jax", "error": str(e)[:200]}), flush=True)
                continue
            if compile_s > a.compile_limit:
                print(json.dumps({"group": "einsum", "case": case, "who": "jax", "skipped": "compile %.1f s" % compile_s}), flush=True)
                continue
            for _ in range(2):
                f(*ops).block_until_ready()
            ts = []
            for _ in range(7):
                t0 = time.perf_counter()
                f(*ops).block_until_ready()
                ts.append((time.perf_counter() - t0) * 1e3)
            ts.sort()
            print(json.dumps({"group": "einsum", "case": case, "who": "jax", "ms": round(ts[len(ts) // 2], 4),
                              "compile_s": round(compile_s, 2)}), flush=True)

if __name__ == "__main__":
    sys.exit(main())
