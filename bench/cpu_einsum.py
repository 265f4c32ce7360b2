#!/usr/bin/env python3
"""tenferro's CPU backend against PyTorch CPU and NumPy + opt_einsum on the einsum instances.

    python3 bench/cpu_einsum.py --tenferro build/release/tools/tenferro \
        [--instances ../shared/instances] [--threads default,1] [--repeat 7] [--out results.jsonl] \
        [--gemm 1024,4096 [--gemm-dtypes f64,f32,c64,c32]] [--shapes] [--only NAME,...] [--load N] \
        [--peers torch,numpy]

Every instance runs in f64 along its stored opt_size path, in one process per tool:
- tenferro: `tenferro einsum INSTANCE --backend cpu --path opt_size --json` (its column-major
  strings, which hold every operand in the same memory order as the row-major peers), once per
  thread setting: `default` leaves the thread count to tenferro, a number N sets
  TENFERRO_NUM_THREADS=N;
- PyTorch CPU (its default threads, then each numeric setting through torch.set_num_threads) and
  NumPy, both through opt_einsum's contract_expression on `format_string` with the same path.
--shapes adds the products of SHAPES below (f64), which are not in the suite; --gemm adds square
products n^3 (`ab,bc->ac`) in each of --gemm-dtypes, both written as temporary instances.
--load N keeps N other processes spinning for the whole run: a busy machine, where each takes a
core from every tool measured. Medians of --repeat runs after one warm-up. Prints a Markdown
table (ms) last; --out writes one JSON line per measurement. The peers are optional: a missing
module leaves its columns empty.
"""
import argparse, glob, json, os, statistics, subprocess, sys, tempfile, time


def median_ms(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def tenferro_ms(exe, path, threads, repeat, dtype="f64"):
    env = dict(os.environ)
    if threads != "default":
        env["TENFERRO_NUM_THREADS"] = threads
    out = subprocess.run([exe, "einsum", path, "--backend", "cpu", "--path", "opt_size", "--json",
                          "--repeat", str(repeat), "--progress", "off", "--dtype", dtype],
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{path}: tenferro exited {out.returncode}: {out.stderr.strip()}")
    return json.loads(out.stdout)["median_s"] * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tenferro", required=True, help="the tenferro CLI")
    ap.add_argument("--instances", default="../shared/instances")
    ap.add_argument("--threads", default="default,1", help="comma-separated: default and/or numbers")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--only", default="", help="comma-separated instance names (default: all)")
    ap.add_argument("--out", default=None, help="JSON lines of every measurement")
    ap.add_argument("--gemm", default="", help="comma-separated square sizes n (n^3 products)")
    ap.add_argument("--shapes", action="store_true", help="also the products of SHAPES (not in the suite)")
    ap.add_argument("--gemm-dtypes", default="f64,f32")
    ap.add_argument("--load", type=int, default=0, help="busy processes kept running meanwhile")
    ap.add_argument("--peers", default="torch,numpy", help="comma-separated: torch, numpy (or none)")
    a = ap.parse_args()
    settings = [t.strip() for t in a.threads.split(",") if t.strip()]
    # Each load process spins while its parent lives, so that none outlives a killed run.
    spin = "import os\nparent = os.getppid()\nwhile os.getppid() == parent: pass"
    load = [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(a.load)]
    try:
        run(a, settings)
    finally:
        for p in load:
            p.kill()


# Products not in the instance suite (--shapes), written as instances with row-major strings
# like the suite's: one row or column, long and short K, skinny, batched.
SHAPES = {
    "dot_2e6": ("ab,bc->ac", [[1, 2000000], [2000000, 1]]),
    "long_k_64x64_k200000": ("ab,bc->ac", [[64, 200000], [200000, 64]]),
    "short_k_4096x4096_k16": ("ab,bc->ac", [[4096, 16], [16, 4096]]),
    "skinny_4096x4096_n16": ("ab,bc->ac", [[4096, 4096], [4096, 16]]),
    "bmm_b64_256": ("zab,zbc->zac", [[64, 256, 256], [64, 256, 256]]),
    "bmm_b512_128": ("zab,zbc->zac", [[512, 128, 128], [512, 128, 128]]),
    "batched_mv_b256_512": ("zab,zb->za", [[256, 512, 512], [256, 512]]),
}
TORCH_DTYPES = {"f64": "float64", "f32": "float32", "c64": "complex128", "c32": "complex64"}


def write_instance(directory, name, fmt, shapes):
    """An instance file with its column-major variant (every operand's labels and extents reversed)."""
    ins, out = fmt.split("->")
    colmajor = ",".join(t[::-1] for t in ins.split(",")) + "->" + out[::-1]
    path = os.path.join(directory, name + ".json")
    with open(path, "w") as f:
        json.dump({"name": name, "format_string": fmt, "shapes": shapes, "format_string_colmajor": colmajor,
                   "shapes_colmajor": [s[::-1] for s in shapes],
                   "paths": {"opt_size": {"path": [list(range(len(shapes)))]}}}, f)
    return path


def run(a, settings):
    only = set(filter(None, a.only.split(",")))
    try:
        import numpy as np, opt_einsum as oe
    except ImportError:
        np = oe = None
    peers = set(a.peers.split(","))
    try:
        import torch
    except ImportError:
        torch = None
    if "torch" not in peers:
        torch = None
    rows, lines = [], []
    tmp = tempfile.TemporaryDirectory()
    jobs = []  # (row name, instance file, dtype)
    for fn in sorted(glob.glob(os.path.join(a.instances, "*.json"))):
        inst = json.load(open(fn))
        if "format_string" in inst and (not only or inst["name"] in only):
            jobs.append((inst["name"], fn, "f64"))
    if a.shapes:
        for name, (fmt, shapes) in SHAPES.items():
            jobs.append((name, write_instance(tmp.name, name, fmt, shapes), "f64"))
    for n in [int(x) for x in a.gemm.split(",") if x]:
        path = write_instance(tmp.name, f"gemm_{n}", "ab,bc->ac", [[n, n], [n, n]])
        jobs += [(f"gemm {dt} {n}^3", path, dt) for dt in a.gemm_dtypes.split(",")]

    for name, fn, dt in jobs:
        inst, row = json.load(open(fn)), {}
        for t in settings:
            row[("tenferro", t)] = tenferro_ms(a.tenferro, fn, t, a.repeat, dt)
        if oe is not None:
            path = [tuple(s) for s in inst["paths"]["opt_size"]["path"]]
            expr = oe.contract_expression(inst["format_string"], *inst["shapes"], optimize=path)
            rng = np.random.default_rng(0)
            ops = [rng.uniform(-1, 1, s) for s in inst["shapes"]]
            if dt in ("c64", "c32"):
                ops = [x + 1j * rng.uniform(-1, 1, x.shape) for x in ops]
            ops = [x.astype(TORCH_DTYPES[dt]) for x in ops]
            if torch is not None:
                default_threads = torch.get_num_threads()
                tops = [torch.from_numpy(x) for x in ops]
                for t in settings:
                    torch.set_num_threads(default_threads if t == "default" else int(t))
                    row[("torch", t)] = median_ms(lambda: expr(*tops, backend="torch"), a.repeat)
                torch.set_num_threads(default_threads)
            if dt == "f64" and "numpy" in peers:
                row[("numpy", "default")] = median_ms(lambda: expr(*ops, backend="numpy"), a.repeat)
        for (who, t), ms in row.items():
            lines.append({"instance": name, "dtype": dt, "who": who, "threads": t, "ms": round(ms, 4)})
        rows.append((name, row))
        print(f"{name}: " + ", ".join(f"{w}/{t} {ms:.2f}" for (w, t), ms in row.items()), file=sys.stderr, flush=True)
    if a.out:
        with open(a.out, "w") as f:
            for l in lines:
                f.write(json.dumps(l) + "\n")
    cols = [("tenferro", t) for t in settings] + ([("torch", t) for t in settings] if torch else []) + \
           ([("numpy", "default")] if oe and "numpy" in peers else [])
    print("| instance | " + " | ".join(f"{w} ({t})" for w, t in cols) + " | tenferro/torch (default) |")
    print("|---" * (len(cols) + 2) + "|")
    for name, row in rows:
        cells = [f"{row[c]:.2f}" if c in row else "" for c in cols]
        ratio = ""
        if ("torch", "default") in row and ("tenferro", "default") in row:
            ratio = f"{row[('tenferro', 'default')] / row[('torch', 'default')]:.2f}"
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio} |")


if __name__ == "__main__":
    sys.exit(main())
