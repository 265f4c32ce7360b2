"""Every op against NumPy: dtypes, strided/negative-stride inputs, rank 0, empty, devices."""
import operator

import numpy as np
import pytest

import tenferro as tf
from conftest import DTYPES, check, rand, tol

NUMERIC = [d for d in DTYPES if d != "bool"]
INEXACT = ["float32", "float64", "complex64", "complex128"]
ORDERED = ["float32", "float64", "int32", "int64"]
SHAPES = [(), (0,), (3,), (2, 3, 4)]


def views(a):
    """The array and strided views of it (transposed, sliced, negative strides)."""
    yield a
    if a.ndim >= 2:
        yield a.T
        yield a[::-1, ::2]
    if a.ndim == 1 and a.size:
        yield a[::-1]


@pytest.mark.parametrize("dtype", NUMERIC)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("op", [operator.add, operator.sub, operator.mul])
def test_arithmetic(dev, op, shape, dtype):
    for a in views(rand(shape, dtype, 1)):
        b = rand(a.shape, dtype, 2)
        ta, tb = tf.asarray(a, device=dev), tf.asarray(b, device=dev)
        check(op(ta, tb), op(a, b))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_true_divide_and_pow(dev, dtype):
    a, b = rand((3, 4), dtype, 1, positive=True), rand((3, 4), dtype, 2, positive=True)
    ta, tb = tf.asarray(a, device=dev), tf.asarray(b, device=dev)
    check(ta / tb, a / b)
    check(ta ** tb, a ** b)
    check(tf.divide(ta, tb), np.divide(a, b))


KIND = {"b": 0, "i": 1, "f": 2, "c": 3}


def weak_result(dtype, s):
    """NumPy 2's rule (NEP 50) for an array of `dtype` with a Python scalar: the scalar only
    raises the kind (written out: Debian's NumPy 1.24 still casts by value)."""
    sk, dk = KIND[np.asarray(s).dtype.kind], KIND[dtype.kind]
    if sk <= dk:
        return dtype
    return {1: np.dtype("int64"), 2: np.dtype("float64"),
            3: np.dtype("complex64" if dtype == np.float32 else "complex128")}[sk]


@pytest.mark.parametrize("dtype", ORDERED)
def test_fmod_and_remainder(dev, dtype):
    a = rand((4, 5), dtype, 1) * 7
    b = rand((4, 5), dtype, 2, positive=True) * np.where(rand((4, 5), "bool", 3), 1, -1).astype(dtype)
    ta, tb = tf.asarray(a, device=dev), tf.asarray(b, device=dev)
    check(tf.fmod(ta, tb), np.fmod(a, b))
    check(tf.remainder(ta, tb), np.remainder(a, b))
    check(ta % tb, a % b)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_scalars_are_weak(dev, dtype):
    a = rand((2, 3), dtype, 3)
    t = tf.asarray(a, device=dev)
    for s in (2, 1.5, 1 - 2j, True):
        r = weak_result(a.dtype, s)
        for op in (operator.add, operator.mul, operator.sub):
            check(op(t, s), op(a.astype(r), np.asarray(s).astype(r)))
            check(op(s, t), op(np.asarray(s).astype(r), a.astype(r)))


@pytest.mark.parametrize("dtypes", [("int32", "float32"), ("float32", "float64"), ("float32", "complex128"),
                                    ("int64", "complex64"), ("bool", "int32"), ("int32", "int64"),
                                    ("float64", "complex64")])
def test_promotion(dev, dtypes):
    a, b = rand((3,), dtypes[0], 1), rand((3,), dtypes[1], 2)
    check(tf.asarray(a, device=dev) + tf.asarray(b, device=dev), a + b)


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((), (2, 2)), ((5, 1, 3), (4, 1)),
                                    ((0, 3), (1, 3))])
def test_broadcasting(dev, shapes):
    a, b = rand(shapes[0], "float64", 1), rand(shapes[1], "float64", 2)
    ta, tb = tf.asarray(a, device=dev), tf.asarray(b, device=dev)
    check(ta * tb, a * b)
    check(tb - ta, b - a)


def test_numpy_operands(dev):
    a, b = rand((2, 3), "float64", 1), rand((2, 3), "float64", 2)
    t = tf.asarray(a, device=dev)
    check(t + b, a + b)
    check(b + t, b + a)  # NumPy defers to the Tensor
    check(t * [1.0, 2.0, 3.0], a * np.array([1.0, 2.0, 3.0]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "complex64", "complex128"])
@pytest.mark.parametrize("op", ["eq", "ne", "lt", "le", "gt", "ge"])
def test_comparisons(dev, op, dtype):
    a, b = rand((4, 3), dtype, 1), rand((4, 3), dtype, 2)
    b[0] = a[0]
    ta, tb = tf.asarray(a, device=dev), tf.asarray(b, device=dev)
    f = getattr(operator, op)
    if dtype.startswith("complex") and op not in ("eq", "ne"):
        # Declared gap: complex numbers have no order in the contract (NumPy orders them
        # lexicographically).
        with pytest.raises(tf.Error) as e:
            f(ta, tb)
        assert (e.value.kind, e.value.op) == ("unsupported", "compare")
        return
    check(f(ta, tb), f(a, b))
    check(f(ta, 0), f(a, 0))


@pytest.mark.parametrize("dtype", INEXACT + ["int32", "int64"])
@pytest.mark.parametrize("name", ["exp", "log", "sqrt", "sin", "cos", "tanh", "expm1", "log1p"])
def test_analytic(dev, name, dtype):
    a = rand((3, 4), dtype, 5, positive=True)
    for v in views(a):
        check(getattr(tf, name)(tf.asarray(v, device=dev)), getattr(np, name)(v))


@pytest.mark.parametrize("dtype", NUMERIC)
def test_abs_neg_conj_real_imag(dev, dtype):
    a = rand((2, 5), dtype, 6)
    for v in views(a):
        t = tf.asarray(v, device=dev)
        check(tf.abs(t), np.abs(v))
        check(abs(t), np.abs(v))
        check(-t, -v)
        check(tf.conj(t), np.conj(v))
        check(tf.real(t), np.real(v))
        check(tf.imag(t), np.imag(v))
        check(t.real, v.real)


@pytest.mark.parametrize("dtype", NUMERIC + ["bool"])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
def test_reductions(dev, name, axis, dtype):
    a = rand((2, 3, 4), dtype, 7)
    if name in ("max", "min") and dtype not in ORDERED:
        # Declared gap: reduce_max / reduce_min take ordered dtypes only (NumPy also takes bool,
        # and complex in lexicographic order).
        with pytest.raises(tf.Error) as e:
            getattr(tf, name)(tf.asarray(a, device=dev), axis=axis)
        assert (e.value.kind, e.value.op) == ("unsupported", "reduce_" + name)
        return
    for v in [a, a.transpose(2, 0, 1)[::-1]]:
        t = tf.asarray(v, device=dev)
        check(getattr(tf, name)(t, axis=axis), getattr(np, name)(v, axis=axis))
        check(getattr(t, name)(axis=axis, keepdims=True), getattr(np, name)(v, axis=axis, keepdims=True))


def test_reductions_rank0_and_empty(dev):
    check(tf.sum(tf.asarray(np.float64(3.0), device=dev)), np.float64(3.0))
    e = np.zeros((0, 3))
    check(tf.sum(tf.asarray(e, device=dev)), np.sum(e))
    check(tf.sum(tf.asarray(e, device=dev), axis=0), np.sum(e, axis=0))
    check(tf.prod(tf.asarray(e, device=dev), axis=0), np.prod(e, axis=0))
    check(tf.sum(tf.asarray(e, device=dev), axis=1), np.sum(e, axis=1))
    check(tf.max(tf.asarray(e.T, device=dev), axis=0), np.max(e.T, axis=0))
    with pytest.raises(tf.Error) as err:
        tf.max(tf.asarray(e, device=dev), axis=0)
    assert err.value.kind == "invalid_argument"


@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose(dev, dtype):
    a = rand((2, 3, 4), dtype, 8)
    t = tf.asarray(a, device=dev)
    check(tf.transpose(t), a.T, exact=True)
    check(t.T, a.T, exact=True)
    check(tf.transpose(t, (1, 2, 0)), a.transpose(1, 2, 0), exact=True)
    check(t.transpose(2, 0, 1), a.transpose(2, 0, 1), exact=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(24,), (4, 6), (2, 3, 4), (2, -1), (), (1, 24, 1)])
def test_reshape_is_c_order(dev, shape, dtype):
    a = rand((2, 3, 4), dtype, 9)
    if shape == ():
        a = a[:1, :1, :1]
    for v in [a, a.transpose(1, 0, 2), a[::-1, :, ::-1]]:
        t = tf.asarray(v, device=dev)
        check(tf.reshape(t, shape), np.reshape(v, shape), exact=True)
        check(t.reshape(*shape) if shape else t.reshape(()), v.reshape(shape), exact=True)
        check(tf.reshape(t, shape if shape else (), order="F"), np.reshape(v, shape, order="F"), exact=True)


def test_reshape_empty(dev):
    a = np.zeros((0, 4))
    check(tf.reshape(tf.asarray(a, device=dev), (4, 0)), a.reshape(4, 0))


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("axes", [2, 1, 0, ([1, 0], [0, 2]), ([2], [0]), (1, 2)])
def test_tensordot(dev, axes, dtype):
    a = rand((3, 4, 5), dtype, 10)
    b = rand((4, 3, 5) if axes == ([1, 0], [0, 2]) else (5, 6) if axes in (1, ([2], [0])) else
             (4, 5, 2) if axes == 2 else (2, 3) if axes == 0 else (2, 3, 4), dtype, 11)
    if axes == ([1, 0], [0, 2]):
        b = rand((4, 2, 3), dtype, 11)
    if axes == (1, 2):
        b = rand((2, 3, 4), dtype, 11)
    for va in [a, a[::-1]]:
        check(tf.tensordot(tf.asarray(va, device=dev), tf.asarray(b, device=dev), axes),
              np.tensordot(va, b, axes))


@pytest.mark.parametrize("dtype", INEXACT)
@pytest.mark.parametrize("eq,shapes", [
    ("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]),
    ("ijk->kji", [(2, 3, 4)]), ("abc,cd,dbe->ae", [(2, 3, 4), (4, 5), (5, 3, 2)]), ("i,i->", [(5,), (5,)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]), ("i,j->ij", [(3,), (4,)]), (",->", [(), ()]),
    ("ab,bc,cd,da->", [(2, 3), (3, 4), (4, 5), (5, 2)]),
])
def test_einsum(dev, eq, shapes, dtype):
    ops = [rand(s, dtype, 12 + k) for k, s in enumerate(shapes)]
    ts = [tf.asarray(o if o.ndim < 2 else o.T.T[::1], device=dev) for o in ops]
    want = np.einsum(eq, *ops)
    check(tf.einsum(eq, *ts), want)
    if len(ops) > 1:
        path = [(0, 1)] + [(0, 1)] * (len(ops) - 2)
        check(tf.einsum(eq, *ts, path=path), want)
        check(tf.einsum(eq, *ts, optimize=["einsum_path"] + path), want)
        if len(ops) > 2:
            check(tf.einsum(eq, *ts, path=[tuple(range(len(ops)))]), want)  # one k-ary step
        for m in ("optimal", "greedy", "random-greedy"):
            check(tf.einsum(eq, *ts, optimize=m), want)


def test_einsum_program(dev):
    shapes = [(2, 3, 4), (4, 5), (5, 3, 2)]
    ops = [rand(s, "float64", 30 + k) for k, s in enumerate(shapes)]
    want = np.einsum("abc,cd,dbe->ae", *ops)
    prog = tf.einsum_program("abc,cd,dbe->ae", *shapes, optimize="optimal")
    assert len(prog.path) == 2 and prog.flops > 0
    check(prog(*[tf.asarray(o, device=dev) for o in ops]), want)
    check(prog(*[tf.asarray(o.T.copy().T, device=dev) for o in ops]), want)  # other layouts, same plan
    # Calls on new operands leave earlier results alone; another dtype gets a program of its own.
    ops2 = [rand(s, "float64", 40 + k) for k, s in enumerate(shapes)]
    r1 = prog(*[tf.asarray(o, device=dev) for o in ops])
    r2 = prog(*[tf.asarray(o, device=dev) for o in ops2])
    check(r1, want)
    check(r2, np.einsum("abc,cd,dbe->ae", *ops2))
    c64 = [(o + 0.5j * o[::-1]).astype("complex64") for o in ops]
    check(prog(*[tf.asarray(o, device=dev) for o in c64]), np.einsum("abc,cd,dbe->ae", *c64))
    given = tf.einsum_program("abc,cd,dbe->ae", *shapes, path=[(1, 2), (0, 1)])
    assert given.path == [(1, 2), (0, 1)] and given.method == "given"
    check(given(*[tf.asarray(o, device=dev) for o in ops]), want)
    with pytest.raises(tf.Error) as e:
        prog(tf.asarray(ops[0], device=dev))
    assert e.value.kind == "invalid_argument"


def test_einsum_mixed_dtypes_and_bad_path(dev):
    a, b = rand((3, 4), "float32", 1), rand((4, 2), "float64", 2)
    check(tf.einsum("ij,jk->ik", tf.asarray(a, device=dev), tf.asarray(b, device=dev)), np.einsum("ij,jk->ik", a, b))
    with pytest.raises(tf.Error) as e:
        tf.einsum("ij,jk->ik", tf.asarray(a, device=dev), tf.asarray(a.T, device=dev), path=[(0, 5)])
    assert e.value.kind == "invalid_argument" and e.value.argument == "path"
    c = tf.ones((2, 5), device=dev)
    for bad in ([(0, 1, 1)], [(0,)], [(0, 1)], [(0, 1, 2), (0, 1)], [(0, 3), (0, 1)]):
        with pytest.raises(tf.Error) as e:
            tf.einsum("ij,jk,kl->il", tf.asarray(a, device=dev), tf.asarray(b, device=dev), c, path=bad)
        assert e.value.kind == "invalid_argument"


@pytest.mark.filterwarnings("ignore:Casting complex values to real")  # NumPy's reference, as intended
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("to", DTYPES)
def test_astype(dev, dtype, to):
    a = rand((3, 2), dtype, 13)
    check(tf.asarray(a, device=dev).astype(to), a.astype(to), exact=to not in INEXACT)
    c = tf.asarray(a, device=dev).copy()
    check(c, a, exact=True)
    if dev == "cpu":
        assert not np.shares_memory(np.asarray(c), a)


@pytest.mark.parametrize("dtype", ["float64", "complex64", "int32", "bool"])
def test_setitem_like_numpy(dev, dtype):
    keys_values = [
        (1, lambda a: a[0]),                                  # a whole row from another row
        ((slice(None), 2), "scalar"),                          # a scalar broadcast
        ((slice(1, None, 2), Ellipsis, -1), lambda a: a[0, :1, 0]),  # broadcast along a slice
        ((slice(None, None, -1), 0), lambda a: a[:, 1]),       # a reversed destination
        ((None, 0, slice(2, 4)), lambda a: a[3, 1:3]),         # None is ignored
        ((slice(3, 1),), "scalar"),                            # empty
        (Ellipsis, lambda a: a[::-1]),                         # the whole tensor, reversed self
    ]
    for key, value in keys_values:
        a = rand((4, 5, 6), dtype, 21)
        t = tf.asarray(a, device=dev, copy=True)
        # A view of t itself as the source (overlapping the destination), or a NumPy scalar of
        # the dtype.
        v = value(a) if callable(value) else rand((1,), dtype, 5)[0]
        tv = value(t) if callable(value) else v
        a[key] = v
        t[key] = tv
        check(t, a, exact=True)


def test_setitem_casts_within_a_kind_only(dev):
    t = tf.zeros((3, 4), dtype="float32", device=dev)
    t[0] = np.arange(4)               # int to float: allowed
    t[1] = np.arange(4.0) / 3         # float64 to float32: allowed
    check(t[:2], np.stack([np.arange(4.0), np.arange(4.0) / 3]).astype(np.float32))
    i = tf.zeros((3,), dtype="int32", device=dev)
    for bad in (1.5, np.ones(3), 1j):
        with pytest.raises(tf.Error) as e:
            i[:] = bad
        assert e.value.kind == "dtype_mismatch" and e.value.op == "setitem"
    with pytest.raises(tf.Error):
        t[0] = np.ones(5)              # not broadcastable
    check(i, np.zeros(3, np.int32))    # unchanged by the failed writes
    if dev != "cpu":                   # a value on another device is moved first
        t[2] = tf.asarray(np.full(4, 2.0, np.float32), device="cpu")
        check(t[2], np.full(4, 2.0, np.float32))


def test_setitem_writes_through_to_numpy_and_refuses_readonly_arrays():
    a = np.zeros(4)
    t = tf.asarray(a)                  # zero-copy: writes reach a
    t[1] = 3.0
    assert a[1] == 3.0
    r = np.zeros(4)
    r.setflags(write=False)
    u = tf.asarray(r)                  # read-only: wrapped, never written
    for target in (u, u[1:], u.T):
        with pytest.raises(tf.Error) as e:
            target[0] = 3.0
        assert e.value.kind == "invalid_argument" and e.value.argument == "x"
    assert r[0] == 0.0 and r[1] == 0.0
    w = tf.asarray(r, copy=True)       # a copy is writable
    w[1] = 3.0
    assert float(np.asarray(w)[1]) == 3.0 and r[1] == 0.0


def test_getitem_and_structure(dev):
    a = rand((4, 5, 6), "float64", 14)
    t = tf.asarray(a, device=dev)
    for key in [1, (slice(None), 2), (slice(1, None, 2), Ellipsis, -1), (None, 0), (slice(None, None, -1),),
                (Ellipsis, None), (slice(3, 1),)]:
        check(t[key], a[key], exact=True)
    check(tf.broadcast_to(tf.asarray(a[0, 0], device=dev), (3, 6)), np.broadcast_to(a[0, 0], (3, 6)), exact=True)
    check(tf.concatenate([t, t], axis=1), np.concatenate([a, a], axis=1), exact=True)
    check(tf.stack([t, t], axis=0), np.stack([a, a], axis=0), exact=True)
    check(tf.trace(t[:, :, :4].transpose(0, 2, 1)[:, :4, :4]), np.trace(a[:, :, :4].transpose(0, 2, 1)[:, :4, :4]))
    check(tf.where(t > 0, t, 0.0), np.where(a > 0, a, 0.0))
    check(tf.moveaxis(t, 0, -1), np.moveaxis(a, 0, -1), exact=True)
    check(t @ tf.asarray(rand((6, 2), "float64", 15), device=dev), a @ rand((6, 2), "float64", 15))
    check(tf.linalg.norm(t), np.linalg.norm(a))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_host_linalg(dev, dtype):
    """svd, qr and eigh (computed on the host by NumPy) keep the dtype and the device and
    reconstruct their operand; NumPy's defaults (full_matrices=True)."""
    a = rand((6, 4), dtype, seed=3)
    t = tf.asarray(a, device=dev)
    tolerance = tol(dtype)
    u, s, vh = tf.linalg.svd(t)
    assert u.shape == (6, 6) and s.shape == (4,) and vh.shape == (4, 4)
    u, s, vh = tf.linalg.svd(t, full_matrices=False)
    for x in (u, s, vh):
        assert x.device == tf.device(dev)
    assert u.dtype == np.dtype(dtype) and s.dtype == np.dtype(dtype).type(0).real.dtype
    np.testing.assert_allclose((np.asarray(u) * np.asarray(s)) @ np.asarray(vh), a, **tolerance)
    q, r = tf.linalg.qr(t)
    assert q.shape == (6, 4) and q.dtype == np.dtype(dtype) and q.device == tf.device(dev)
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, **tolerance)
    h = a.conj().T @ a
    w, v = tf.linalg.eigh(tf.asarray(h, device=dev))
    assert w.device == tf.device(dev)
    v = np.asarray(v)
    np.testing.assert_allclose((v * np.asarray(w)) @ v.conj().T, h, **tolerance)


def test_cumsum_count_nonzero_eye_diag(dev):
    x = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -3.0]])
    t = tf.asarray(x, device=dev)
    check(tf.cumsum(t, axis=1), np.cumsum(x, axis=1))
    check(tf.cumsum(t), np.cumsum(x))
    assert tf.count_nonzero(t) == 3 and isinstance(tf.count_nonzero(t), int)
    check(tf.count_nonzero(t, axis=0), np.count_nonzero(x, axis=0))
    e = tf.eye(3, 4, k=1, dtype="complex64", device=dev)
    assert e.device == tf.device(dev)
    check(e, np.eye(3, 4, 1, dtype=np.complex64))
    check(tf.diag(t), np.diag(x))
    check(tf.diag(tf.asarray([1.0, -2.0, 3.0], device=dev)), np.diag([1.0, -2.0, 3.0]))
    with pytest.raises(tf.Error) as e:
        tf.diag(t, k=1)
    assert e.value.kind == "unsupported" and e.value.op == "diag"
