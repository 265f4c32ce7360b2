#!/usr/bin/env python3
"""Range probe of f32 / c32 arithmetic: finds where a device's Vulkan
results leave the CPU backend's, with huge operands (near FLT_MAX, where a reciprocal is
subnormal) and random ones across the exponent range, but no subnormal inputs (a device that
flushes them is documented in docs/accuracy.md).

  probe_range.py gen FILE            writes the cases (no expectations: print mode)
  probe_range.py gen64 FILE          f64 / c64 cases with subnormal parts too
  probe_range.py cmp EVAL_OUTPUT     compares the [cpu] and [vulkan] lines of
                                     `tenferro eval FILE --backend all` (stdin or a file)

cmp prints, per case, the elements compared, the largest difference in ulps of the CPU value
(complex: normwise, in ulps of its larger part; a subnormal against a zero counts as equal)
and the first elements differing by more than 4 ulps."""
import json, math, random, struct, sys

HUGE = [3.0e38, 1.0e38, 2.0 ** 126, 8.5e37, 1.0e30, 1.0e20]
BASE = HUGE + [1.0, 0.5, 3.0, 1.0e-20, 1.0e-30, 2.0 ** -120, 0.0]


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def rnd(r, lo=-120, hi=127):
    return f32(r.choice([-1, 1]) * 2.0 ** r.uniform(lo, hi))


def gen(path):
    r = random.Random(14)
    cases = []
    def add(name, op, *inputs):
        cases.append({"name": name, "op": op, "inputs": [{"dtype": d, "shape": [len(v)], "data": v} for d, v in inputs]})
    sv = [s * v for v in BASE for s in (1, -1)]
    cplx = [[x, y] for x in sv for y in sv]
    cplx += [[rnd(r), rnd(r)] for _ in range(400)]
    for op in ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "abs", "sign"]:
        add(op + "_c32", op, ("c32", cplx))
    pairs_a = [[x, y] for x in sv[::3] for y in sv[::3]] + [[rnd(r), rnd(r)] for _ in range(200)]
    pairs_b = [pairs_a[(i * 7 + 3) % len(pairs_a)] for i in range(len(pairs_a))]
    for op in ["div", "mul"]:
        add(op + "_c32", op, ("c32", pairs_a), ("c32", pairs_b))
    reals = sv + [rnd(r) for _ in range(1500)]
    for op in ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "erf", "sign"]:
        add(op + "_f32", op, ("f32", reals))
    da = [rnd(r) for _ in range(3000)] + [x for x in HUGE for _ in range(3)] + [1.0, 3.0, -7.0] * 6
    db = [rnd(r) for _ in range(3000)] + [y for _ in HUGE for y in (3.0e38, 2.0 ** 126 * 1.5, 1.0e38)] + HUGE * 3
    add("div_f32", "div", ("f32", da), ("f32", db))
    add("rem_f32", "rem", ("f32", da), ("f32", db))
    add("atan2ish_log_c32", "log", ("c32", [[a, b] for a, b in zip(da[:1500], db[:1500])]))
    # f64 and c64: the device's f64 division and the complex kernels near the f64 range's ends.
    r64 = lambda lo=-1000, hi=1023: r.choice([-1, 1]) * 2.0 ** r.uniform(lo, hi)
    ea = [r64() for _ in range(3000)] + [1.0, 3.0, -7.0, 1e308, 1e-300]
    eb = [r64() for _ in range(3000)] + [3.0, 7.0, 1e308, 1e-300, 1e308]
    add("div_f64", "div", ("f64", ea), ("f64", eb))
    big = [1.7e308, 1e308, 2.0 ** 1022, 1e300, 1.0, 0.5, 1e-300, 0.0]
    sb = [s * v for v in big for s in (1, -1)]
    z64 = [[x, y] for x in sb for y in sb] + [[r64(), r64()] for _ in range(300)] + [[0.5, 710.5], [710.2, 1.5]]
    for op in ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "abs", "sign"]:
        add(op + "_c64", op, ("c64", z64))
    add("div_c64", "div", ("c64", z64), ("c64", z64[::-1]))
    json.dump({"cases": cases}, open(path, "w"))


def gen64(path):
    """f64 / c64 with subnormal parts too."""
    r = random.Random(7)
    r64 = lambda lo=-1074, hi=1023: r.choice([-1, 1]) * 2.0 ** r.uniform(lo, hi)
    vals = [5e-324, 1e-310, 2.2250738585072014e-308, 1e-300, 1.0, 1e300, 1.7e308, 0.0]
    sv = [s * v for v in vals for s in (1, -1)]
    z = [[x, y] for x in sv for y in sv] + [[r64(), r64()] for _ in range(600)]
    z += [[r64(-1074, -1000), r64(-1074, -1000)] for _ in range(200)]
    c = lambda v: {"dtype": "c64", "shape": [len(v)], "data": v}
    f = lambda v: {"dtype": "f64", "shape": [len(v)], "data": v}
    cases = [{"name": op + "_c64", "op": op, "inputs": [c(z)]}
             for op in ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "abs", "sign"]]
    cases += [{"name": op + "_c64", "op": op, "inputs": [c(z), c(z[::-1])]} for op in ["div", "mul"]]
    reals = [r64() for _ in range(3000)] + sv
    cases += [{"name": op + "_f64", "op": op, "inputs": [f(reals)]}
              for op in ["exp", "log", "sin", "cos", "tanh", "sqrt", "rsqrt", "expm1", "log1p", "erf", "sign"]]
    cases += [{"name": op + "_f64", "op": op, "inputs": [f(reals), f(reals[::-1])]} for op in ["rem", "div"]]
    json.dump({"cases": cases}, open(path, "w"))


def num(v):
    return float(v)  # "nan", "inf", "-inf" too


def ulps(a, b, wide):
    """|a - b| in ulps of the reference a (f32, or f64 when wide); complex values normwise: in
    ulps of the larger part of a. A subnormal against a zero counts as equal (flushing devices)."""
    if isinstance(a, list):
        ra, rb = [num(x) for x in a], [num(x) for x in b]
        if all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(ra, rb)):
            return 0
        fin = [(x, y) for x, y in zip(ra, rb) if math.isfinite(x) and math.isfinite(y)]
        if len(fin) < 2 and any(not (x == y or (math.isnan(x) and math.isnan(y))) for x, y in zip(ra, rb)
                                if not (math.isfinite(x) and math.isfinite(y))):
            return float("inf")  # a non-finite part differs
        scale = max([abs(x) for x, _ in fin] + [0.0])
        return max([abs(x - y) for x, y in fin] + [0.0]) / ulp_of(scale, wide) if scale > 0 else 0
    fa, fb = num(a), num(b)
    if fa == fb or (math.isnan(fa) and math.isnan(fb)):
        return 0
    if math.isnan(fa) or math.isnan(fb) or math.isinf(fa) or math.isinf(fb):
        return float("inf")
    tiny = 2.0 ** -1022 if wide else 2.0 ** -126
    if abs(fa) < tiny and abs(fb) < tiny:
        return 0
    return abs(fa - fb) / ulp_of(abs(fa), wide)


def ulp_of(x, wide):
    if wide:
        return max(math.ulp(x), 5e-324)
    e = math.frexp(x)[1] if x > 0 else -125
    return 2.0 ** (max(e, -125) - 24)


def cmp(lines):
    got = {}
    for ln in lines:
        if " : {" not in ln or "[" not in ln:
            continue
        head, body = ln.split(" : ", 1)
        name = head.split(":")[-1].split(" [")[0]
        be = head.rsplit("[", 1)[1].rstrip("] ")
        got.setdefault(name, {})[be] = json.loads(body)["data"]
    for name, d in got.items():
        if "cpu" not in d or "vulkan" not in d:
            print(name, "missing a backend"); continue
        worst, bad = 0, []
        wide = name.endswith("_f64") or name.endswith("_c64")
        for i, (c, v) in enumerate(zip(d["cpu"], d["vulkan"])):
            u = ulps(c, v, wide)
            worst = max(worst, u)
            if u > 4 and len(bad) < 4:
                bad.append((i, c, v))
        print(f"{name}: {len(d['cpu'])} elements, worst {worst} ulp" + ("".join(f"\n    [{i}] cpu {c} vulkan {v}" for i, c, v in bad)))


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
    elif sys.argv[1] == "gen64":
        gen64(sys.argv[2])
    else:
        cmp(open(sys.argv[2]) if len(sys.argv) > 2 else sys.stdin)
