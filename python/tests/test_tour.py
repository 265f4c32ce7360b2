"""examples/tour.py (the tour of examples/tour.cpp, from Python) against the same computation in NumPy."""
import pathlib
import runpy

import numpy as np
import pytest

TOUR = pathlib.Path(__file__).resolve().parents[2] / "examples" / "tour.py"


def tour_numpy(seed=1):
    rng = np.random.default_rng(seed)
    A = rng.random((8, 2, 8))
    env = np.ones((8, 8))
    for _ in range(10):
        env = np.einsum("ab,asc,bsd->cd", env, A, A)
    M = rng.random((64, 64)) / 32.0
    chain = M @ M @ M
    x = rng.random(1000)
    y = 2.0 * x * x - x / (x + 1.0)
    return env.sum(), chain.sum(), y.max()


def test_tour_matches_numpy(dev):
    tour = runpy.run_path(str(TOUR))["tour"]
    got = tour(dev)
    want = tour_numpy()
    assert got == pytest.approx(want, rel=1e-12)
