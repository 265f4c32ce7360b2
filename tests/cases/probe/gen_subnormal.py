"""f32 / c32 subnormal operands and results, checked exactly (rtol 0): what a device that
flushes f32 subnormals (NVIDIA's Vulkan driver) gets wrong unless the op keeps them
(docs/accuracy.md). Expected values: double arithmetic on the float32 operands, rounded once
to float32 by the host (struct; for + - * / and sqrt of float32 values
that is the correctly rounded float32 result: double has more than 2 x 24 + 2 bits), never
tenferro. Plain Python (no NumPy). Writes ../subnormal.json: python3 gen_subnormal.py"""
import json
import math
import os
import struct


def f32(v):
    """v rounded to float32 (to nearest even, subnormals kept), as a Python float."""
    return struct.unpack("<f", struct.pack("<f", v))[0]


class F(float):
    """A float32 value; + - * round the exact double result once to float32."""
    def __new__(cls, v): return float.__new__(cls, f32(float(v)))
    def __add__(self, o): return F(float(self) + float(o))
    def __sub__(self, o): return F(float(self) - float(o))
    def __mul__(self, o): return F(float(self) * float(o))
    def __neg__(self): return F(-float(self))
    def __abs__(self): return F(abs(float(self)))


def enc(dt, v):
    if dt in ("c32", "c64"):
        return [v.real, v.imag]
    return float(v)


def T(dt, data):
    """A 1-D or 2-D tensor object from (nested) lists."""
    if data and isinstance(data[0], list):
        return {"dtype": dt, "shape": [len(data), len(data[0])], "data": [[enc(dt, v) for v in r] for r in data]}
    return {"dtype": dt, "shape": [len(data)], "data": [enc(dt, v) for v in data]}


class File:
    def __init__(self, name): self.name, self.cases = name, []
    def add(self, name, op, inputs, attrs=None, expected=None, rtol=None):
        c = {"name": name, "op": op, "inputs": inputs}
        if attrs is not None: c["attrs"] = attrs
        c["expected"] = expected
        if rtol is not None: c["rtol"] = rtol
        self.cases.append(c)
    def write(self):
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", self.name + ".json")
        with open(path, "w") as fh:
            fh.write('{"cases": [\n' + ",\n".join(json.dumps(c) for c in self.cases) + "\n]}\n")
        print(self.name, len(self.cases))


f = File("subnormal")
R0 = 0  # rtol 0: exact (EVAL_FORMAT.md: the tolerance is rtol * max(|expected|, 1))

x = [1e-40, -1e-45, 1.1754942e-38, -5.9e-39, 3.0, 0.0, 1e-30]
y = [2e-40, 1e-45, 1e-45, 5.9e-39, -3.0, -1e-40, -1e-30]
xs = [F(v) for v in x]
ys = [F(v) for v in y]
f.add("neg_f32", "neg", [T("f32", x)], expected=T("f32", [float(-a) for a in xs]), rtol=R0)
f.add("abs_f32", "abs", [T("f32", x)], expected=T("f32", [float(abs(a)) for a in xs]), rtol=R0)
f.add("add_f32", "add", [T("f32", x), T("f32", y)], expected=T("f32", [float(a + b) for a, b in zip(xs, ys)]), rtol=R0)
f.add("sub_f32", "sub", [T("f32", x), T("f32", y)], expected=T("f32", [float(a - b) for a, b in zip(xs, ys)]), rtol=R0)
m1 = [1e-20, 1e-25, 3e-39, 1e10, 0.5, 1e-40, 7e-30]
m2 = [1e-20, 1e-20, 0.5, 1e-48 * 1e9, -1e-40, 1e30, -3e-10]
f.add("mul_f32", "mul", [T("f32", m1), T("f32", m2)],
      expected=T("f32", [float(F(a) * F(b)) for a, b in zip(m1, m2)]), rtol=R0)
d1 = [1e-40, 1.0, 3e-39, 1e-30, -2e-45, 1e-40]
d2 = [2.0, 3e38, 7.0, 1e10, 2.0, 1e-40]
f.add("div_f32", "div", [T("f32", d1), T("f32", d2)],
      expected=T("f32", [f32(float(F(a)) / float(F(b))) for a, b in zip(d1, d2)]), rtol=R0)
f.add("maximum_f32", "maximum", [T("f32", [1e-40, -1e-40, 1e-45, -1e-45]), T("f32", [0.0, -0.0, -1e-45, 0.0])],
      expected=T("f32", [1e-40, -0.0, 1e-45, 0.0]), rtol=R0)
f.add("minimum_f32", "minimum", [T("f32", [1e-40, -1e-40, 1e-45, -1e-45]), T("f32", [0.0, -0.0, -1e-45, 0.0])],
      expected=T("f32", [0.0, -1e-40, -1e-45, -1e-45]), rtol=R0)
f.add("clamp_f32", "clamp", [T("f32", [1e-40, -1e-40, 5e-39]), T("f32", [0.0, -2e-40, 1e-39]), T("f32", [1.0, 1.0, 2e-39])],
      expected=T("f32", [1e-40, -1e-40, 2e-39]), rtol=R0)
f.add("sign_f32", "sign", [T("f32", [1e-45, -1e-40])], expected=T("f32", [1.0, -1.0]), rtol=R0)
sq = [1e-40, 1e-45, 4e-44]
f.add("sqrt_f32", "sqrt", [T("f32", sq)], expected=T("f32", [f32(math.sqrt(float(F(a)))) for a in sq]), rtol=R0)
rs = [[1e-40, 2e-40, 1e-45], [-1e-40, 3e-45, 1e-38]]
f.add("reduce_sum_f32", "reduce_sum", [T("f32", rs)], {"dimensions": [1]},
      expected=T("f32", [f32(sum(float(F(v)) for v in r)) for r in rs]), rtol=R0)
f.add("reduce_max_f32", "reduce_max", [T("f32", rs)], {"dimensions": [1]}, expected=T("f32", [2e-40, 1e-38]), rtol=R0)
f.add("reduce_min_f32", "reduce_min", [T("f32", rs)], {"dimensions": [1]}, expected=T("f32", [1e-45, -1e-40]), rtol=R0)
f.add("reduce_prod_f32", "reduce_prod", [T("f32", [[1e-20, 1e-20], [1e-25, 1e-20]])], {"dimensions": [1]},
      expected=T("f32", [float(F(1e-20) * F(1e-20)), float(F(1e-25) * F(1e-20))]), rtol=R0)
f.add("convert_f32_f64", "convert", [T("f32", x)], {"dtype": "f64"}, expected=T("f64", [float(a) for a in xs]), rtol=R0)
f.add("convert_f32_c64", "convert", [T("f32", x[:3])], {"dtype": "c64"},
      expected=T("c64", [complex(float(a), 0.0) for a in xs[:3]]), rtol=R0)
cz = [complex(1e-40, -1e-45), complex(3.0, 5e-39), complex(-1e-38, 0.0)]
czf = [complex(float(F(z.real)), float(F(z.imag))) for z in cz]
f.add("convert_c32_c64", "convert", [T("c32", cz)], {"dtype": "c64"}, expected=T("c64", czf), rtol=R0)
f.add("neg_c32", "neg", [T("c32", cz)], expected=T("c32", [-z for z in czf]), rtol=R0)
f.add("conj_c32", "conj", [T("c32", cz)], expected=T("c32", [z.conjugate() for z in czf]), rtol=R0)
cw = [complex(2e-40, 1e-45), complex(-3.0, -5e-39), complex(1e-38, 1.0)]
cwf = [complex(float(F(z.real)), float(F(z.imag))) for z in cw]
f.add("add_c32", "add", [T("c32", cz), T("c32", cw)],
      expected=T("c32", [complex(float(F(a.real) + F(b.real)), float(F(a.imag) + F(b.imag))) for a, b in zip(cz, cw)]),
      rtol=R0)
# Products with one operand real or imaginary: each part is one product, rounded once.
ca = [complex(1e-20, 1e-25), complex(3e-39, -1.0), complex(1e-40, 2e-40)]
cb = [complex(1e-20, 0.0), complex(0.0, 0.5), complex(4.0, 0.0)]
def cmul1(a, b):
    if b.imag == 0.0:
        return complex(float(F(a.real) * F(b.real)), float(F(a.imag) * F(b.real)))
    return complex(float(-(F(a.imag) * F(b.imag))), float(F(a.real) * F(b.imag)))
f.add("mul_c32", "mul", [T("c32", ca), T("c32", cb)], expected=T("c32", [cmul1(a, b) for a, b in zip(ca, cb)]), rtol=R0)
# scatter with duplicate targets: the combiners' read-modify-writes (CAS loops on f32 bits).
SC = {"update_window_dims": [], "inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0],
      "index_vector_dim": 1}
idx = {"dtype": "i32", "shape": [4, 1], "data": [[0], [0], [1], [2]]}
op0 = [1e-40, 0.0, 1e-20]
up = [1e-40, 1e-45, 2e-40, 1e-20]
o, u = [F(v) for v in op0], [F(v) for v in up]
for comb, fn in (("add", lambda a, b: a + b), ("mul", lambda a, b: a * b)):
    want = [fn(fn(o[0], u[0]), u[1]), fn(o[1], u[2]), fn(o[2], u[3])]
    f.add(f"scatter_{comb}_f32", "scatter", [T("f32", op0), idx, T("f32", up)], dict(SC, combiner=comb),
          expected=T("f32", [float(v) for v in want]), rtol=R0)
f.add("scatter_max_f32", "scatter", [T("f32", [-1.0, 0.0, -1e-40]), idx, T("f32", [1e-45, 1e-40, 2e-40, -2e-40])],
      dict(SC, combiner="max"), expected=T("f32", [1e-40, 2e-40, -1e-40]), rtol=R0)
co = [complex(1e-40, 0.0), complex(0.0, -1e-45), complex(1.0, 1e-40)]
cu = [complex(1e-40, 1e-45), complex(2e-45, 0.0), complex(0.0, 3e-40), complex(-1.0, 1e-40)]
cof = [complex(float(F(z.real)), float(F(z.imag))) for z in co]
cuf = [complex(float(F(z.real)), float(F(z.imag))) for z in cu]
def cadd(a, b): return complex(float(F(a.real) + F(b.real)), float(F(a.imag) + F(b.imag)))
f.add("scatter_add_c32", "scatter", [T("c32", co), idx, T("c32", cu)], dict(SC, combiner="add"),
      expected=T("c32", [cadd(cadd(cof[0], cuf[0]), cuf[1]), cadd(cof[1], cuf[2]), cadd(cof[2], cuf[3])]), rtol=R0)
f.write()
