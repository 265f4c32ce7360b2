import json, math, cmath, os, struct
import numpy as np
I32_MIN, I32_MAX = -2**31, 2**31-1
I64_MIN, I64_MAX = -2**63, 2**63-1
NAN, INF = float('nan'), float('inf')
def wrap(v, dt):
    bits = 32 if dt == 'i32' else 64
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >= 1 << (bits-1) else v
def f32(x): return float(np.float32(x))
def enc_el(dt, v):
    if dt in ('c32','c64'):
        v = complex(v); return [enc_f(v.real), enc_f(v.imag)]
    if dt == 'bool': return bool(v)
    if dt in ('i32','i64'): return int(v)
    return enc_f(float(v))
def enc_f(x):
    if math.isnan(x): return "nan"
    if math.isinf(x): return "inf" if x > 0 else "-inf"
    return x
def nest(dt, flat, shape):
    if len(shape) == 0: return enc_el(dt, flat[0])
    if shape[0] == 0: return []
    n = len(flat) // shape[0] if shape[0] else 0
    return [nest(dt, flat[i*n:(i+1)*n], shape[1:]) for i in range(shape[0])]
def T(dt, data, shape=None):
    """data: nested python lists / scalar / numpy array (logical order)"""
    if isinstance(data, np.ndarray):
        if shape is None: shape = list(data.shape)
        flat = list(data.reshape(-1).tolist())
    else:
        if shape is None:
            a = np.array(data, dtype=object); shape = list(a.shape)
            flat = list(a.reshape(-1)) if a.ndim else [data]
        else:
            def fl(d):
                if isinstance(d, list):
                    r = []
                    for e in d: r += fl(e)
                    return r
                return [d]
            flat = fl(data)
    return {"dtype": dt, "shape": list(shape), "data": nest(dt, flat, list(shape))}
def S(dt, v): return T(dt, v, [])
class File:
    def __init__(self, name): self.name = name; self.cases = []
    def add(self, name, op, inputs, attrs=None, expected=None, error=None, rtol=None):
        c = {"name": name, "op": op, "inputs": inputs}
        if attrs is not None: c["attrs"] = attrs
        if expected is not None: c["expected"] = expected
        if error is not None: c["expected_error"] = error
        if rtol is not None: c["rtol"] = rtol
        assert name not in [x["name"] for x in self.cases], name
        self.cases.append(c)
    def write(self):
        with open(os.path.join(os.environ.get("PROBE_OUT", "."), f"{self.name}.json"), "w") as fh:
            fh.write('{"cases": [\n' + ",\n".join(json.dumps(c) for c in self.cases) + "\n]}\n")
        print(self.name, len(self.cases))
