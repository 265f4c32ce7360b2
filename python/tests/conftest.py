"""Shared fixtures: the devices to run on (the CPU, and Vulkan where a device exists)."""
import numpy as np
import pytest

import tenferro as tf

DEVICES = ["cpu"] + (["vulkan"] if tf.vulkan_available() else [])
DTYPES = ["float32", "float64", "int32", "int64", "bool", "complex64", "complex128"]


@pytest.fixture(params=DEVICES)
def dev(request):
    return request.param


def rand(shape, dtype, seed=0, positive=False):
    """Random NumPy data of a dtype (integers small, so products do not overflow)."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind == "i":
        lo = 1 if positive else -4
        return rng.integers(lo, 5, size=shape).astype(dtype)
    x = rng.random(shape) + (0.5 if positive else -0.5)
    if dtype.kind == "c":
        x = x + 1j * (rng.random(shape) - 0.5)
    return np.asarray(x).astype(dtype)


def tol(dtype):
    d = np.dtype(dtype)
    return dict(rtol=2e-5, atol=2e-5) if d in (np.float32, np.complex64) else dict(rtol=1e-12, atol=1e-12)


def check(t, expected, exact=False):
    """t (a Tensor) equals the NumPy result: dtype, shape and values."""
    assert isinstance(t, tf.Tensor)
    expected = np.asarray(expected)
    got = np.asarray(t)
    assert got.dtype == expected.dtype, (got.dtype, expected.dtype)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    if exact or expected.dtype.kind in "ib":
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got, expected, **tol(expected.dtype))
