# audit harness: build cases, run on both backends, report FAIL/ERROR and cpu/vulkan disagreements
# The CLI: $TENFERRO_CLI, by default the release preset's build of this checkout.
import json, subprocess, sys, math, re, os
ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
TF = os.environ.get("TENFERRO_CLI", os.path.join(ROOT, "build", "release", "tools", "tenferro"))
NAN, INF = float("nan"), float("inf")
def enc(v, dt):
    if dt == "bool": return bool(v)
    if dt in ("i32", "i64"): return int(v)
    if dt in ("c32", "c64"):
        v = complex(v); return [enc(v.real, "f64"), enc(v.imag, "f64")]
    v = float(v)
    if math.isnan(v): return "nan"
    if math.isinf(v): return "inf" if v > 0 else "-inf"
    return v
def nest(flat, shape, dt):
    if not shape: return enc(flat[0], dt)
    n = 1
    for d in shape[1:]: n *= d
    return [nest(flat[i*n:(i+1)*n], shape[1:], dt) for i in range(shape[0])]
def T(dt, shape, flat):
    return {"dtype": dt, "shape": list(shape), "data": nest(list(flat), list(shape), dt)}
def V(dt, vals): return T(dt, [len(vals)], vals)
def S(dt, v): return T(dt, [], [v])
class F:
    def __init__(s, name): s.name, s.cases = name, []
    def add(s, name, op, inputs, attrs=None, exp=None, err=None, rtol=None):
        c = {"name": name, "op": op, "inputs": inputs}
        if attrs is not None: c["attrs"] = attrs
        if exp is not None: c["expected"] = exp
        if err is not None: c["expected_error"] = err
        if rtol is not None: c["rtol"] = rtol
        s.cases.append(c)
    def run(s):
        path = f"/tmp/audit/{s.name}.json"
        json.dump({"cases": s.cases}, open(path, "w"))
        res = {}
        for be in ("cpu", "vulkan"):
            out = subprocess.run([TF, "eval", path, "--backend", be], capture_output=True, text=True).stdout
            for line in out.splitlines():
                m = re.match(r"(PASS|FAIL|ERROR) \S+?:(.*) \[(cpu|vulkan)\](?: : (.*))?$", line)
                if m: res.setdefault(m.group(2), {})[m.group(3)] = (m.group(1), m.group(4) or "")
            last = out.strip().splitlines()[-1] if out.strip() else "(no output)"
            print(be, last)
        bad = 0
        for c in s.cases:
            r = res.get(c["name"], {})
            cp, vk = r.get("cpu", ("MISSING", "")), r.get("vulkan", ("MISSING", ""))
            if cp[0] != "PASS" or vk[0] != "PASS" or cp[1] != vk[1]:
                bad += 1
                print("##", c["name"]); print("   cpu:", cp[0], cp[1][:300]); print("   vk :", vk[0], vk[1][:300])
        print(f"{s.name}: {len(s.cases)} cases, {bad} flagged")
