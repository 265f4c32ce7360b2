"""Python overhead of the tenferro module (docs/python.md "Overhead").

1. Per-op call overhead: small ops (4 x 4 float64) called from Python against the same op in
   a C++ loop inside the extension (tenferro._tenferro._bench_cpp), in microseconds per call.
2. einsum on one instance of data/instances: tenferro.einsum from Python (operands on the
   device, the instance's stored path, inside a session, synchronized) against
   `tenferro einsum INSTANCE --path PATH --json` of the CLI, median times.

Usage: python bench/python_overhead.py [--cli build/release/tools/tenferro]
           [--instance data/instances/NAME.json] [--path opt_flops] [--device cpu] [--repeat 20]
"""
import argparse
import json
import pathlib
import statistics
import subprocess
import time

import numpy as np

import tenferro as tf
from tenferro import _tenferro


def per_call(fn, iters, dev):
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        dev.synchronize()  # as the C++ loop does
        best = min(best, (time.perf_counter() - t0) / iters)
    return best


def overhead(device, iters):
    rng = np.random.default_rng(0)
    a = tf.asarray(rng.random((4, 4)), device=device)
    b = tf.asarray(rng.random((4, 4)), device=device)
    cases = {
        "add": (lambda: a + b, (a, b)),
        "mul": (lambda: a * b, (a, b)),
        "exp": (lambda: tf.exp(a), (a, a)),
        "sum": (lambda: tf.sum(a, axis=0), (a, a)),
        "tensordot": (lambda: tf.tensordot(a, b, 1), (a, b)),
    }
    rows = []
    for name, (fn, args) in cases.items():
        py = per_call(fn, iters, tf.device(device))
        cpp = min(_tenferro._bench_cpp(name, *args, iters) for _ in range(5))
        rows.append((name, py * 1e6, cpp * 1e6, (py - cpp) * 1e6))
    return rows


def einsum_bench(instance, path_name, device, repeat, cli, rounds):
    inst = json.loads(pathlib.Path(instance).read_text())
    eq = inst["format_string_colmajor"]
    shapes = inst["shapes_colmajor"]
    path = None if path_name == "auto" else inst["paths"][path_name]["path"]
    rng = np.random.default_rng(42)
    # Column-major operands, as the CLI makes them (the executor plans for the layouts it gets).
    ops = [tf.asarray(np.asfortranarray(rng.random(s) - 0.5), device=device) for s in shapes]
    dev = tf.device(device)

    def run():
        with tf.session(dev):
            r = tf.einsum(eq, *ops, path=path)
        dev.synchronize()
        return r

    def py_median():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.3:  # warm-up as the CLI does
            run()
        times = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
        return statistics.median(times)

    def cli_median():
        backend = "cpu" if device == "cpu" else "vulkan"
        out = subprocess.run([cli, "einsum", instance, "--path", path_name, "--backend", backend, "--json",
                              "--repeat", str(repeat)], check=True, capture_output=True, text=True).stdout
        return json.loads(out)["median_s"]

    # Alternating rounds, the best median of each: a shared machine's load moves between rounds.
    py, cli_s = float("inf"), (float("inf") if cli else None)
    for _ in range(rounds):
        py = min(py, py_median())
        if cli:
            cli_s = min(cli_s, cli_median())
    return inst["name"], py, cli_s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--instance", default="data/instances/lm_batch_likelihood_sentence_4_4d.json")
    ap.add_argument("--path", default="opt_flops", help="a stored path of the instance, or auto")
    ap.add_argument("--repeat", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3, help="alternating Python/CLI rounds (best median of each)")
    ap.add_argument("--cli", help="the tenferro CLI to compare the einsum time with")
    a = ap.parse_args()

    print(f"per-call time on {a.device} (4x4 float64), microseconds")
    print(f"{'op':<10} {'python':>8} {'c++':>8} {'overhead':>9}")
    for name, py, cpp, d in overhead(a.device, a.iters):
        print(f"{name:<10} {py:8.2f} {cpp:8.2f} {d:9.2f}")
    name, py, cli = einsum_bench(a.instance, a.path, a.device, a.repeat, a.cli, a.rounds)
    print(f"einsum {name} (path {a.path}) on {a.device}: python {py * 1e3:.3f} ms", end="")
    if cli is not None:
        print(f", CLI {cli * 1e3:.3f} ms, ratio {py / cli:.3f}")
    else:
        print()


if __name__ == "__main__":
    main()
