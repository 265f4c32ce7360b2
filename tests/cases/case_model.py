"""The reference model behind gen_cases.py: a small row-major nd-array model in pure Python
(math, cmath), written from SEMANTICS.md and the StableHLO spec, independent of tenferro.

Arrays are A(dtype, shape, flat row-major values); the JSON files are layout-free nested
lists. tenferro's column-major storage shows up only where semantics depend on it (reshape),
and that is modelled explicitly (colmajor_flat / from_colmajor). File(...) writes one
case file.
"""
import cmath
import itertools
import json
import math
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
NAN, INF = float("nan"), float("inf")
I32_MIN, I32_MAX = -2**31, 2**31 - 1
I64_MIN, I64_MAX = -2**63, 2**63 - 1

# ---------------------------------------------------------------------------------------
# nd-array model
# ---------------------------------------------------------------------------------------


class A:
    """dtype, shape, flat row-major list (floats, ints, bools or complex)."""

    def __init__(self, dtype, shape, flat):
        self.dtype, self.shape, self.flat = dtype, list(shape), [coerce(v, dtype) for v in flat]
        assert len(self.flat) == numel(self.shape), (shape, len(flat))

    def get(self, idx):
        return self.flat[rm(idx, self.shape)]


def coerce(v, dtype):
    """Python value of dtype's kind, so the model's arithmetic follows the dtype (1 -> 1.0)."""
    if dtype in ("f32", "f64"):
        return float(v)
    if dtype in ("c32", "c64"):
        return complex(v)
    if dtype == "bool":
        return bool(v)
    return int(v)


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def rm(idx, shape):
    off = 0
    for i, d in zip(idx, shape):
        off = off * d + i
    return off


def indices(shape):
    return itertools.product(*[range(d) for d in shape])


def f32(x):
    if isinstance(x, complex):
        return complex(f32(x.real), f32(x.imag))
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def wrap(x, dtype):
    bits = 32 if dtype == "i32" else 64
    x &= (1 << bits) - 1
    return x - (1 << bits) if x >= 1 << (bits - 1) else x


def rnd(x, dtype):
    """Rounds a computed value to dtype."""
    if dtype in ("f32", "c32"):
        return f32(x)
    if dtype in ("i32", "i64"):
        return wrap(x, dtype)
    return x


def enc(v, dtype):
    if dtype == "bool":
        return bool(v)
    if dtype in ("i32", "i64"):
        return int(v)
    if dtype in ("c32", "c64"):
        v = complex(v)
        return [enc(v.real, "f64"), enc(v.imag, "f64")]
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def nest(flat, shape, dtype):
    if not shape:
        return enc(flat[0], dtype)
    step = numel(shape[1:])
    return [nest(flat[i * step:(i + 1) * step], shape[1:], dtype) for i in range(shape[0])]


def js(a):
    return {"dtype": a.dtype, "shape": a.shape, "data": nest(a.flat, a.shape, a.dtype)}


def T(dtype, shape, flat):
    return A(dtype, shape, flat)


def S(dtype, v):
    return A(dtype, [], [v])


def V(dtype, vals):
    return A(dtype, [len(vals)], vals)


def M(dtype, rows):
    return A(dtype, [len(rows), len(rows[0])], [v for r in rows for v in r])


def iota(dtype, shape, start=1):
    n = numel(shape)
    if dtype in ("c32", "c64"):
        return A(dtype, shape, [complex(start + i, -(i % 3)) for i in range(n)])
    if dtype in ("f32", "f64"):
        return A(dtype, shape, [float(start + i) for i in range(n)])
    if dtype == "bool":
        return A(dtype, shape, [(i % 3) == 0 for i in range(n)])
    return A(dtype, shape, [start + i for i in range(n)])


# ---------------------------------------------------------------------------------------
# elementwise reference
# ---------------------------------------------------------------------------------------


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def safe(f):
    def g(*args):
        try:
            return f(*args)
        except (ValueError, ZeroDivisionError):
            return NAN
        except OverflowError:
            return INF
    return g


def fsign(x):
    if isinstance(x, complex):
        return 0j if x == 0 else x / abs(x)
    if isinstance(x, int) and not isinstance(x, bool):
        return (x > 0) - (x < 0)
    if math.isnan(x):
        return NAN
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)


def flog(x):
    if isinstance(x, complex):
        return cmath.log(x)
    if x == 0:
        return -INF
    if x < 0 or math.isnan(x):
        return NAN
    return INF if math.isinf(x) else math.log(x)


def fsqrt(x):
    if isinstance(x, complex):
        return cmath.sqrt(x)
    if x < 0 or math.isnan(x):
        return NAN
    return math.sqrt(x)


def frsqrt(x):
    if isinstance(x, complex):
        return 1 / cmath.sqrt(x)
    if x == 0:
        return INF
    s = fsqrt(x)
    return NAN if math.isnan(s) else 1.0 / s


def fexp(x):
    if isinstance(x, complex):
        return cmath.exp(x)
    if x == INF:
        return INF
    if x == -INF:
        return 0.0
    return safe(math.exp)(x)


UNARY = {
    "neg": lambda x: -x,
    "conj": lambda x: x.conjugate() if isinstance(x, complex) else x,
    "abs": abs,
    "sign": fsign,
    "exp": fexp,
    "log": flog,
    "sin": lambda x: cmath.sin(x) if isinstance(x, complex) else safe(math.sin)(x),
    "cos": lambda x: cmath.cos(x) if isinstance(x, complex) else safe(math.cos)(x),
    "tanh": lambda x: cmath.tanh(x) if isinstance(x, complex) else math.tanh(x),
    "sqrt": fsqrt,
    "rsqrt": frsqrt,
    "expm1": lambda x: cmath.exp(x) - 1 if isinstance(x, complex) else (INF if x == INF else math.expm1(x)),
    "log1p": lambda x: cmath.log(1 + x) if isinstance(x, complex) else (
        -INF if x == -1 else (NAN if x < -1 or math.isnan(x) else math.log1p(x))),
    "erf": math.erf,
}


def unary(op, x):
    out_dtype = {"c32": "f32", "c64": "f64"}.get(x.dtype, x.dtype) if op == "abs" else x.dtype
    return A(out_dtype, x.shape, [rnd(UNARY[op](v), out_dtype) for v in x.flat])


def is_int(d):
    return d in ("i32", "i64")


def fmax(a, b, is_max):
    if isinstance(a, float) and (math.isnan(a) or math.isnan(b)):
        return NAN
    return max(a, b) if is_max else min(a, b)


def binop(op, a, b, dtype):
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        if is_int(dtype):
            return trunc_div(a, b)
        if isinstance(a, complex) or isinstance(b, complex):
            return complex(a) / complex(b)
        if b == 0:
            return NAN if (a == 0 or math.isnan(a)) else math.copysign(INF, a) * math.copysign(1, b)
        return a / b
    if op == "rem":
        if is_int(dtype):
            return a - b * trunc_div(a, b)
        return safe(math.fmod)(a, b)
    if op == "pow":
        if is_int(dtype):
            return a ** b
        if isinstance(a, complex):
            return complex(a) ** complex(b) if a != 0 else (1 if b == 0 else 0j)
        return safe(math.pow)(a, b)
    if op == "maximum":
        return fmax(a, b, True)
    if op == "minimum":
        return fmax(a, b, False)
    raise KeyError(op)


def binary(op, x, y):
    # rank-0 real scalar with a complex tensor (add/sub/mul/div)
    dtype = x.dtype if x.dtype in ("c32", "c64") or not y.dtype.startswith("c") else y.dtype
    shape = x.shape if x.shape else y.shape
    xs = x.flat if x.shape or not y.shape else x.flat
    n = numel(shape)
    xf = xs * n if len(xs) == 1 and n != 1 else xs
    yf = y.flat * n if len(y.flat) == 1 and n != 1 else y.flat
    return A(dtype, shape, [rnd(binop(op, a, b, dtype), dtype) for a, b in zip(xf, yf)])


CMP = {"EQ": lambda a, b: a == b, "NE": lambda a, b: a != b, "LT": lambda a, b: a < b,
       "LE": lambda a, b: a <= b, "GT": lambda a, b: a > b, "GE": lambda a, b: a >= b}


def compare(x, y, d):
    # a rank-0 operand broadcasts against the other's shape
    shape = x.shape if x.shape else y.shape
    n = numel(shape)
    xf = x.flat * n if len(x.flat) == 1 and n != 1 else x.flat
    yf = y.flat * n if len(y.flat) == 1 and n != 1 else y.flat
    return A("bool", shape, [CMP[d](a, b) for a, b in zip(xf, yf)])


def bcast(a, n):
    return a.flat * n if len(a.flat) == 1 else a.flat


def select(p, t, f):
    n = numel(t.shape)
    return A(t.dtype, t.shape, [a if c else b for c, a, b in zip(bcast(p, n), t.flat, f.flat)])


def clamp(x, lo, hi):
    n = numel(x.shape)
    return A(x.dtype, x.shape, [fmax(fmax(v, l, True), h, False) for v, l, h in zip(x.flat, bcast(lo, n), bcast(hi, n))])


# ---------------------------------------------------------------------------------------
# structural / reduce / dot / indexing reference
# ---------------------------------------------------------------------------------------


def transpose(x, perm):
    shape = [x.shape[p] for p in perm]
    out = []
    for o in indices(shape):
        xi = [0] * len(perm)
        for i, p in enumerate(perm):
            xi[p] = o[i]
        out.append(x.get(xi))
    return A(x.dtype, shape, out)


def colmajor_flat(x):
    """Values in column-major (colex) order, as tenferro stores them."""
    return [x.get(list(reversed(r))) for r in indices(list(reversed(x.shape)))]


def from_colmajor(dtype, shape, vals):
    rev = list(reversed(shape))
    out = [None] * len(vals)
    for k, r in enumerate(indices(rev)):
        out[rm(list(reversed(r)), shape)] = vals[k]
    return A(dtype, shape, out)


def reshape(x, shape):
    return from_colmajor(x.dtype, shape, colmajor_flat(x))


def broadcast_in_dim(x, shape, dims):
    out = []
    for o in indices(shape):
        out.append(x.get([0 if x.shape[j] == 1 else o[d] for j, d in enumerate(dims)]))
    return A(x.dtype, shape, out)


def zero(dtype):
    return {"bool": False, "i32": 0, "i64": 0, "c32": 0j, "c64": 0j}.get(dtype, 0.0)


def extract_diagonal(x, a, b):
    shape = x.shape[:b] + x.shape[b + 1:]
    ai = a if a < b else a - 1
    out = []
    for o in indices(shape):
        xi = list(o)
        xi.insert(b, o[ai])
        out.append(x.get(xi))
    return A(x.dtype, shape, out)


def embed_diagonal(x, a, b):
    shape = x.shape[:b] + [x.shape[a]] + x.shape[b:]
    out = [zero(x.dtype)] * numel(shape)
    for i in indices(x.shape):
        oi = list(i)
        oi.insert(b, i[a])
        out[rm(oi, shape)] = x.get(i)
    return A(x.dtype, shape, out)


def triangular(x, k, lower):
    out = []
    for i in indices(x.shape):
        keep = i[0] >= i[1] - k if lower else i[0] <= i[1] - k
        out.append(x.get(i) if keep else zero(x.dtype))
    return A(x.dtype, x.shape, out)


def slice_(x, start, limit, strides):
    shape = [max(0, -(-(l - s) // st)) for s, l, st in zip(start, limit, strides)]
    return A(x.dtype, shape, [x.get([s + i * st for i, s, st in zip(o, start, strides)]) for o in indices(shape)])


def dynamic_slice(x, starts, sizes):
    st = [min(max(s, 0), d - z) for s, d, z in zip(starts, x.shape, sizes)]
    return slice_(x, st, [s + z for s, z in zip(st, sizes)], [1] * len(sizes))


def dynamic_update_slice(x, u, starts):
    st = [min(max(s, 0), d - z) for s, d, z in zip(starts, x.shape, u.shape)]
    out = list(x.flat)
    for i in indices(u.shape):
        out[rm([s + j for s, j in zip(st, i)], x.shape)] = u.get(i)
    return A(x.dtype, x.shape, out)


def pad(x, low, high, interior, value=None):
    value = zero(x.dtype) if value is None else value
    shape = [lo + hi + (n + (n - 1) * it if n else 0) for lo, hi, it, n in zip(low, high, interior, x.shape)]
    out = []
    for o in indices(shape):
        xi = []
        for p, lo, it, n in zip(o, low, interior, x.shape):
            q = p - lo
            if q < 0 or q % (it + 1) or q // (it + 1) >= n:
                xi = None
                break
            xi.append(q // (it + 1))
        out.append(value if xi is None else x.get(xi))
    return A(x.dtype, shape, out)


def concatenate(xs, dim):
    shape = list(xs[0].shape)
    shape[dim] = sum(x.shape[dim] for x in xs)
    out = []
    for o in indices(shape):
        p = o[dim]
        for x in xs:
            if p < x.shape[dim]:
                xi = list(o)
                xi[dim] = p
                out.append(x.get(xi))
                break
            p -= x.shape[dim]
    return A(xs[0].dtype, shape, out)


def reverse(x, dims):
    return A(x.dtype, x.shape, [x.get([x.shape[a] - 1 - i if a in dims else i for a, i in enumerate(o)])
                                for o in indices(x.shape)])


def reduce(op, x, dims):
    keep = [a for a in range(len(x.shape)) if a not in dims]
    shape = [x.shape[a] for a in keep]
    acc = {}
    for i in indices(x.shape):
        key = tuple(i[a] for a in keep)
        v = x.get(i)
        if key not in acc:
            acc[key] = v
        elif op == "reduce_sum":
            acc[key] = acc[key] + v
        elif op == "reduce_prod":
            acc[key] = acc[key] * v
        else:
            acc[key] = fmax(acc[key], v, op == "reduce_max")
    return A(x.dtype, shape, [rnd(acc[tuple(o)], x.dtype) for o in indices(shape)])


def dot_general(l, r, lb, rb, lc, rc, lconj=False, rconj=False):
    lf = [a for a in range(len(l.shape)) if a not in lb and a not in lc]
    rf = [a for a in range(len(r.shape)) if a not in rb and a not in rc]
    shape = [l.shape[a] for a in lf] + [r.shape[a] for a in rf] + [l.shape[a] for a in lb]
    cshape = [l.shape[a] for a in lc]
    out = []
    for o in indices(shape):
        lfi, rfi, bi = o[:len(lf)], o[len(lf):len(lf) + len(rf)], o[len(lf) + len(rf):]
        s = 0
        for c in indices(cshape):
            li, ri = [0] * len(l.shape), [0] * len(r.shape)
            for a, v in zip(lf, lfi):
                li[a] = v
            for a, v in zip(rf, rfi):
                ri[a] = v
            for a, b, v in zip(lb, rb, bi):
                li[a], ri[b] = v, v
            for a, b, v in zip(lc, rc, c):
                li[a], ri[b] = v, v
            x, y = l.get(li), r.get(ri)
            if lconj:
                x = x.conjugate()
            if rconj:
                y = y.conjugate()
            s += x * y
        out.append(rnd(s, l.dtype))
    return A(l.dtype, shape, out)


def start_index(ind, batch_index, ivd):
    if ivd == len(ind.shape):
        return [int(ind.get(batch_index))]
    out = []
    for k in range(ind.shape[ivd]):
        i = list(batch_index)
        i.insert(ivd, k)
        out.append(int(ind.get(i)))
    return out


def gather(x, ind, offset_dims, collapsed, start_index_map, ivd, slice_sizes, obd=(), sibd=()):
    batch_sizes = [d for a, d in enumerate(ind.shape) if a != ivd]
    offset_sizes = [slice_sizes[d] for d in range(len(x.shape)) if d not in collapsed and d not in obd]
    rank = len(batch_sizes) + len(offset_sizes)
    shape, nb, no = [], 0, 0
    for p in range(rank):
        if p in offset_dims:
            shape.append(offset_sizes[no])
            no += 1
        else:
            shape.append(batch_sizes[nb])
            nb += 1
    out = []
    for o in indices(shape):
        bi = [o[p] for p in range(rank) if p not in offset_dims]
        oi = [o[p] for p in range(rank) if p in offset_dims]
        st = start_index(ind, bi, ivd)
        xi = [0] * len(x.shape)
        for k, d in enumerate(start_index_map):
            xi[d] = min(max(st[k], 0), x.shape[d] - slice_sizes[d])
        for d_op, d_st in zip(obd, sibd):
            xi[d_op] += bi[d_st if d_st < ivd else d_st - 1]
        nxt = 0
        for d in range(len(x.shape)):
            if d in collapsed or d in obd:
                continue
            xi[d] += oi[nxt]
            nxt += 1
        out.append(x.get(xi))
    return A(x.dtype, shape, out)


def scatter(x, ind, upd, uwd, iwd, sdod, ivd, ibd=(), sibd=(), combiner="add", oob="clamp"):
    out = list(x.flat)
    extent, nxt = [1] * len(x.shape), 0
    for d in range(len(x.shape)):
        if d in iwd or d in ibd:
            continue
        extent[d] = upd.shape[uwd[nxt]]
        nxt += 1
    for u in indices(upd.shape):
        si = [u[p] for p in range(len(u)) if p not in uwd]
        wi = [u[p] for p in range(len(u)) if p in uwd]
        st = start_index(ind, si, ivd)
        ri = [0] * len(x.shape)
        for k, d in enumerate(sdod):
            hi = x.shape[d] - extent[d]
            # clamp: the window start clamped into the operand; skip (StableHLO): the start as
            # given, and the element dropped below when its index lies outside the operand.
            ri[d] = st[k] if oob == "skip" else min(max(st[k], 0), hi)
        for d_op, d_st in zip(ibd, sibd):
            ri[d_op] += si[d_st if d_st < ivd else d_st - 1]
        nxt = 0
        for d in range(len(x.shape)):
            if d in iwd or d in ibd:
                continue
            ri[d] += wi[nxt]
            nxt += 1
        if not all(0 <= ri[d] < x.shape[d] for d in range(len(x.shape))):
            continue
        p, v = rm(ri, x.shape), upd.get(list(u))
        if combiner == "replace":
            out[p] = v
        elif combiner == "add":
            out[p] = rnd(out[p] + v, x.dtype)
        elif combiner == "mul":
            out[p] = rnd(out[p] * v, x.dtype)
        else:
            out[p] = fmax(out[p], v, combiner == "max")
    return A(x.dtype, x.shape, out)


# ---------------------------------------------------------------------------------------
# case building
# ---------------------------------------------------------------------------------------


class File:
    def __init__(self, name):
        self.name, self.cases, self.names = name, [], set()

    def add(self, name, op, inputs, attrs=None, expected=None, error=None, rtol=None):
        assert name not in self.names, name
        self.names.add(name)
        c = {"name": name, "op": op, "inputs": [js(i) for i in inputs]}
        if attrs:
            c["attrs"] = attrs
        if expected is not None:
            c["expected"] = js(expected)
        if error is not None:
            c["expected_error"] = error
        if rtol is not None:
            c["rtol"] = rtol
        self.cases.append(c)

    def write(self):
        path = os.path.join(HERE, self.name + ".json")
        with open(path, "w") as f:
            f.write('{"cases": [\n')
            f.write(",\n".join("  " + json.dumps(c, separators=(", ", ": ")) for c in self.cases))
            f.write("\n]}\n")
        print(f"{path}: {len(self.cases)} cases")
