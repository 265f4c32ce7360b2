"""opt_einsum, cotengra and quimb driving tenferro through autoray, checked against NumPy."""
import numpy as np
import pytest

import tenferro as tf
from conftest import check, rand

oe = pytest.importorskip("opt_einsum")
autoray = pytest.importorskip("autoray")

EQ = "abc,cd,dbe,ef->af"
SHAPES = [(3, 4, 5), (5, 6), (6, 4, 2), (2, 3)]


def operands(dtype="float64"):
    return [rand(s, dtype, 20 + k) for k, s in enumerate(SHAPES)]


def test_autoray_infers_tenferro(dev):
    t = tf.asarray(rand((2, 2), "float64"), device=dev)
    assert autoray.infer_backend(t) == "tenferro"
    check(autoray.do("tensordot", t, t, 1), np.tensordot(np.asarray(t), np.asarray(t), 1))
    check(autoray.do("conj", t), np.asarray(t))
    assert autoray.do("to_numpy", t).shape == (2, 2)


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
def test_opt_einsum_contract(dev, dtype):
    ops = operands(dtype)
    want = np.einsum(EQ, *ops)
    ts = [tf.asarray(o, device=dev) for o in ops]
    for backend in ("tenferro", "auto"):
        got = oe.contract(EQ, *ts, backend=backend)
        check(got, want)
    path, _ = oe.contract_path(EQ, *ops, optimize="optimal")
    check(tf.einsum(EQ, *ts, path=path), want)
    expr = oe.contract_expression(EQ, *SHAPES)
    check(expr(*ts, backend="tenferro"), want)


def test_cotengra(dev):
    ctg = pytest.importorskip("cotengra")
    ops = operands()
    want = np.einsum(EQ, *ops)
    ts = [tf.asarray(o, device=dev) for o in ops]
    check(ctg.einsum(EQ, *ts), want)
    inputs = [tuple(t) for t in EQ.split("->")[0].split(",")]
    size_dict = {c: d for term, s in zip(inputs, SHAPES) for c, d in zip(term, s)}
    tree = ctg.array_contract_tree(inputs, tuple("af"), size_dict, optimize="greedy")
    check(tree.contract(ts), want)
    check(tf.einsum(EQ, *ts, path=tree.get_path()), want)


qtn = pytest.importorskip("quimb.tensor")


def on_tenferro(tn, dev):
    tn = tn.copy()
    tn.apply_to_arrays(lambda x: tf.asarray(x, device=dev))
    return tn


def close(got, want, dev, rtol=1e-9):
    assert isinstance(got, tf.Tensor) and got.device == tf.device(dev)  # contracted by tenferro
    got = complex(np.asarray(got))
    assert abs(got - complex(want)) <= rtol * max(1.0, abs(complex(want))), (got, want)


def test_quimb_mps_norm(dev):
    mps = qtn.MPS_rand_state(8, bond_dim=4, dtype="complex128", seed=7)
    want = mps.H @ mps
    t = on_tenferro(mps, dev)
    assert all(isinstance(x.data, tf.Tensor) for x in t)
    close(t.H @ t, want, dev)


def test_quimb_random_regular(dev):
    tn = qtn.TN_rand_reg(10, 3, D=2, seed=3, dtype="float64")
    want = tn.contract(..., optimize="greedy")
    close(on_tenferro(tn, dev).contract(..., optimize="greedy"), want, dev)


def test_quimb_2d_grid(dev):
    tn = qtn.TN2D_rand(3, 3, D=2, seed=5, dtype="float64")
    want = tn.contract(..., optimize="greedy")
    got = on_tenferro(tn, dev).contract(..., optimize="greedy")
    close(got, want, dev)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_quimb_canonize_and_compress(dev, dtype):
    """quimb's gauge and truncation moves (QR and SVD through autoray) on tenferro arrays give
    NumPy's network: the same norm and bond dimensions, the tensors left on the device."""
    mps = qtn.MPS_rand_state(10, bond_dim=8, dtype=dtype, seed=11)
    moves = {
        "canonize": lambda m: m.canonize(5),
        "left_canonize": lambda m: m.left_canonize(),
        "compress": lambda m: m.compress(max_bond=4, cutoff=0.0),
        "right_compress with cutoff": lambda m: m.right_compress(cutoff=1e-3),
    }
    for name, move in moves.items():
        want, got = mps.copy(), on_tenferro(mps, dev)
        move(want)
        move(got)
        assert all(isinstance(x.data, tf.Tensor) and x.data.device == tf.device(dev) for x in got), name
        assert got.max_bond() == want.max_bond(), name
        close(got.H @ got, want.H @ want, dev)
