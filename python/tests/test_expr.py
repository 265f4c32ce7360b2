"""Fused expressions (tenferro.lazy, Expr.eval): the eager ops' results bit for bit, on every
device, with the eager ops' errors."""
import operator

import numpy as np
import pytest

import tenferro as tf
from conftest import DEVICES, rand

DTYPES = ["float32", "float64", "complex64", "int32"]
ORDERED = ["float32", "float64", "int32"]
INEXACT = ["float32", "float64", "complex64"]


def same_bits(got, want):
    """got (an eval'd Expr) is the Tensor `want`: dtype, shape, device and every bit."""
    assert isinstance(got, tf.Tensor) and isinstance(want, tf.Tensor)
    assert got.device == want.device
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    np.testing.assert_array_equal(np.ascontiguousarray(g).view(np.uint8), np.ascontiguousarray(w).view(np.uint8))


def operands(dev, dtype):
    """x a transposed view (5, 3), y compact (5, 3), z rank 0, v a row (3,) that broadcasts."""
    x = tf.asarray(rand((3, 5), dtype, 1), device=dev).T
    y = tf.asarray(rand((5, 3), dtype, 2), device=dev)
    z = tf.asarray(rand((), dtype, 3), device=dev)
    v = tf.asarray(rand((3,), dtype, 4), device=dev)
    assert x.strides_elements != y.strides_elements
    return x, y, z, v


# (name, chain, dtypes): each chain runs eagerly on Tensors and lazily with one operand made an Expr.
CHAINS = [
    ("exp_sin", lambda x, y, z, v: tf.exp(tf.sin(x) * y + 1), INEXACT),
    ("numbers_both_sides", lambda x, y, z, v: -(x * 0.5 + x * y) / (2.0 - x), INEXACT),
    ("int_numbers", lambda x, y, z, v: (3 * x - y) * (2 - x) + 1, DTYPES),
    ("rank0", lambda x, y, z, v: x * z - z + y, DTYPES),
    ("broadcast_row", lambda x, y, z, v: (x - v) * y + v, DTYPES),
    ("functions", lambda x, y, z, v: tf.add(tf.multiply(tf.tanh(x), tf.cos(y)), tf.sqrt(tf.exp(z))), INEXACT),
    ("abs_conj", lambda x, y, z, v: abs(tf.conj(x) * y) + 1, DTYPES),
    ("where_compare", lambda x, y, z, v: tf.where(x < y, x * 2, tf.maximum(x, y) - 1), ORDERED),
    ("where_equal", lambda x, y, z, v: tf.where(x != z, x, y) - tf.where(x == y, z, 1), DTYPES),
    ("comparisons", lambda x, y, z, v: tf.where((x <= 0.25) == (y >= z), 1, -x), ORDERED),
    ("remainder_pow", lambda x, y, z, v: x % 3 + tf.power(y, 2), ORDERED),
    ("int_true_divide", lambda x, y, z, v: x / 2 + y, DTYPES),  # int32 / 2 is float64: x converted first
    ("int_analytic", lambda x, y, z, v: tf.exp(x) * 0.5 - y, DTYPES),  # int32 -> float64 as the eager exp
]


@pytest.mark.parametrize("chain,dtype", [(c, d) for _, c, ds in CHAINS for d in ds],
                         ids=[f"{n}-{d}" for n, _, ds in CHAINS for d in ds])
def test_eval_is_the_eager_chain_bit_for_bit(dev, chain, dtype):
    x, y, z, v = operands(dev, dtype)
    want = chain(x, y, z, v)
    # The Expr on the left of the operators, then on the right (Tensor op Expr).
    for lazy_args in ((tf.lazy(x), y, z, v), (x, tf.lazy(y), z, v)):
        e = chain(*lazy_args)
        assert isinstance(e, tf.Expr)
        same_bits(e.eval(), want)
        same_bits(tf.eval(e), want)


@pytest.mark.parametrize("dtype", DTYPES)
def test_shared_subexpressions_rank0_and_numpy_operands(dev, dtype):
    x, y, z, v = operands(dev, dtype)
    a = rand((5, 3), dtype, 5)
    s = tf.lazy(x) * 2
    same_bits((s + s * s - a).eval(), x * 2 + (x * 2) * (x * 2) - a)
    same_bits((a - tf.lazy(y)).eval(), a - y)  # NumPy's operator defers to the Expr
    same_bits((tf.lazy(z) * x - v).eval(), z * x - v)  # a rank-0 Expr
    same_bits((tf.lazy(z) + 1).eval(), z + 1)  # rank 0 throughout
    same_bits(tf.lazy(x).eval(), x.copy())  # lazy(x) alone: a compact copy


@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_python_scalars_are_weak(dev, dtype):
    x, y, z, v = operands(dev, dtype)
    for s in (2, 1.5, 1 - 2j, True):
        for op in (operator.add, operator.mul, operator.sub):
            same_bits(op(tf.lazy(x), s).eval(), op(x, s))
            same_bits(op(s, tf.lazy(x)).eval(), op(s, x))


@pytest.mark.parametrize("dtype", ORDERED)
def test_a_reduction_ends_the_expression(dev, dtype):
    x, y, z, v = operands(dev, dtype)
    # max and min are order-independent: the eager results exactly.
    same_bits(tf.max(tf.lazy(x) * y - 1, axis=1).eval(), tf.max(x * y - 1, axis=1))
    same_bits(tf.min(tf.lazy(x) - v, axis=(0, 1), keepdims=True).eval(), tf.min(x - v, axis=(0, 1), keepdims=True))
    same_bits((tf.lazy(x) + y).max(axis=-2).eval(), (x + y).max(axis=-2))
    # A tensor alone is the eager reduction (int32 sums in int64; an int32 op's sum is refused,
    # test_errors_are_the_eager_ops).
    same_bits(tf.sum(tf.lazy(x), axis=0).eval(), tf.sum(x, axis=0))
    if dtype != "int32":
        got, want = tf.sum(tf.lazy(x) * y, axis=0).eval(), tf.sum(x * y, axis=0)
        assert got.shape == want.shape == (3,) and got.dtype == want.dtype
        # Float sums may be reassociated: within n eps sum |x y|.
        bound = 5 * np.finfo(dtype).eps * np.asarray(tf.sum(abs(x * y), axis=0))
        assert np.all(np.abs(np.asarray(got) - np.asarray(want)) <= bound)


def test_int64_sums_are_exact(dev):
    x = tf.asarray(rand((6, 4), "int64", 1), device=dev)
    same_bits(tf.sum(tf.lazy(x) * x + 1, axis=1).eval(), tf.sum(x * x + 1, axis=1))
    same_bits(tf.prod(tf.lazy(x) - 7).eval(), tf.prod(x - 7))


def test_errors_are_the_eager_ops(dev):
    x = tf.ones((2, 3), device=dev)
    y = tf.ones((4, 3), device=dev)
    with pytest.raises(tf.Error) as eager:
        x + y
    e = tf.exp(tf.lazy(x)) + y  # building checks nothing
    with pytest.raises(type(eager.value)) as lazy:
        e.eval()
    assert (lazy.value.kind, lazy.value.op, lazy.value.argument) == (eager.value.kind, eager.value.op, "rhs")
    assert lazy.value.kind == "shape_mismatch" and "[add]" in str(lazy.value)
    # An op whose eager form converts the value of another op (int32 / int32 is float64).
    i = tf.asarray(np.arange(6, dtype=np.int32).reshape(2, 3), device=dev)
    with pytest.raises(tf.Error) as err:
        ((tf.lazy(i) + i) / 2).eval()
    assert (err.value.kind, err.value.op, err.value.argument) == ("unsupported", "div", "lhs")
    with pytest.raises(tf.Error) as err:
        tf.sum(tf.lazy(i) * i).eval()
    assert (err.value.kind, err.value.op) == ("unsupported", "reduce_sum")
    # A reduction may only end the expression.
    with pytest.raises(tf.Error) as err:
        (tf.sum(tf.lazy(x)) + 1).eval()
    assert (err.value.kind, err.value.op) == ("invalid_argument", "reduce_sum")
    # An op the backend refuses: the eager op's kind (complex numbers have no order).
    c = tf.ones((3,), dtype=tf.complex64, device=dev)
    with pytest.raises(tf.Error) as eager:
        c < c
    with pytest.raises(tf.Error) as lazy:
        (tf.lazy(c) < c).eval()
    assert lazy.value.kind == eager.value.kind == "unsupported"
    with pytest.raises(tf.Error) as err:
        tf.asarray(tf.lazy(x))
    assert err.value.kind == "invalid_argument"
    with pytest.raises(TypeError):
        bool(tf.lazy(x) > 0)


@pytest.mark.skipif(len(DEVICES) < 2, reason="needs a Vulkan device")
def test_operands_on_two_devices_are_refused_as_eagerly():
    x, g = tf.ones((3,)), tf.ones((3,), device="vulkan")
    with pytest.raises(tf.Error) as eager:
        x * g
    with pytest.raises(tf.Error) as lazy:
        (tf.lazy(x) * g).eval()
    assert lazy.value.kind == eager.value.kind == "runtime_state"


def test_ops_on_tensors_stay_eager(dev):
    x, y, z, v = operands(dev, "float64")
    for r in (x + y, -x, x < 1, tf.exp(x), tf.multiply(x, 2), tf.where(x > 0, x, y), tf.sum(x), x.sum(axis=0),
              tf.remainder(x, 2), abs(x)):
        assert isinstance(r, tf.Tensor)
    e = tf.lazy(x)
    for r in (e + y, y + e, 2 * e, -e, abs(e), e < 1, 1 < e, tf.exp(e), tf.multiply(y, e), tf.where(e > 0, x, y),
              tf.where(x > 0, e, 0.0), tf.sum(e), e.sum(axis=0), e % 2, e ** 2, e.conj()):
        assert isinstance(r, tf.Expr)
    assert tf.lazy(e) is e
    assert repr(tf.exp(e) * 2) == "tenferro.Expr(multiply(exp(float64[5, 3]), 2))"
