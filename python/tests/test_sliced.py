"""Sliced einsum from Python: einsum_sliced against NumPy on every device, shares that add up,
the CPU and a Vulkan device together, errors, and einsum_distributed under mpirun (mpi4py)."""
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tenferro as tf
from conftest import DEVICES, rand

# A small network (a ring of four tensors with an open pair) whose working set needs slicing
# below 2048 elements.
SUBSCRIPTS = "abc,cde,efa,bdg->fg"
SHAPES = [(6, 7, 8), (8, 5, 9), (9, 10, 6), (7, 5, 4)]


def operands(dtype, device):
    return [tf.asarray(rand(s, dtype, seed=k), device=device) for k, s in enumerate(SHAPES)]


@pytest.mark.parametrize("dtype", ["float64", "complex128", "float32"])
def test_einsum_sliced_matches_numpy(dev, dtype):
    ops = operands(dtype, dev)
    want = np.einsum(SUBSCRIPTS, *[np.asarray(o) for o in ops])
    limit = 2048 * np.dtype(dtype).itemsize  # 16 KiB in float64
    got, info = tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=limit, info=True)
    assert info["slices"] >= 2 and info["slice_bytes"] <= limit < info["unsliced_bytes"]
    assert len(info["labels"]) == len(info["chunks"]) >= 1 and info["overhead"] >= 1
    assert got.device == ops[0].device
    rtol = 1e-4 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=rtol * np.abs(want).max())


def test_shares_add_up(dev):
    ops = operands("float64", dev)
    want = np.einsum(SUBSCRIPTS, *[np.asarray(o) for o in ops])
    for n in (2, 3):
        parts = [np.asarray(tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=8 << 10, share=(k, n))) for k in range(n)]
        np.testing.assert_allclose(sum(parts), want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


@pytest.mark.skipif(len(DEVICES) < 2, reason="needs a Vulkan device besides the CPU")
def test_cpu_and_vulkan_together():
    ops = operands("float64", "cpu")
    want = np.einsum(SUBSCRIPTS, *[np.asarray(o) for o in ops])
    got = tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=8 << 10, devices=["vulkan", "cpu"])
    assert got.device == tf.device("vulkan")
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12 * np.abs(want).max())


def test_errors():
    ops = operands("float64", "cpu")
    with pytest.raises(tf.Error) as e:
        tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=8)
    assert e.value.kind == "out_of_memory" and e.value.argument == "memory_limit"
    with pytest.raises(tf.Error) as e:
        tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=8 << 10, share=(3, 3))
    assert e.value.kind == "invalid_argument" and e.value.argument == "run"
    # Still usable.
    assert tf.einsum_sliced(SUBSCRIPTS, *ops, memory_limit=8 << 10).shape == (10, 4)


SCRIPT = textwrap.dedent(r"""
    import sys
    import numpy as np
    from mpi4py import MPI
    import tenferro as tf
    sys.path.insert(0, sys.argv[1])
    from test_sliced import SUBSCRIPTS, operands
    comm = MPI.COMM_WORLD
    ops = operands("complex128", "cpu")
    if sys.argv[2] == "fail" and comm.Get_rank() == 1:
        ops[0] = tf.asarray(np.zeros((6, 7, 9)))  # a wrong shape on rank 1 only
    out = open(f"{sys.argv[3]}.{comm.Get_rank()}", "w")  # one file per rank: no interleaving
    try:
        r = tf.einsum_distributed(comm, SUBSCRIPTS, *ops, memory_limit=8 << 10)
    except tf.Error as e:
        out.write(f"error {e.kind}: {e}\n")
        sys.exit(0)
    if comm.Get_rank() == 0:
        want = np.einsum(SUBSCRIPTS, *[np.asarray(o) for o in ops])
        err = np.abs(np.asarray(r) - want).max() / np.abs(want).max()
        out.write(f"rel_error {err:.3e}\n")
    else:
        out.write("none\n" if r is None else "a result on a rank that is not the root\n")
""")


def mpirun():
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return None
    return shutil.which("mpirun")


@pytest.mark.skipif(mpirun() is None, reason="needs mpi4py and mpirun (python3-mpi4py, openmpi-bin)")
@pytest.mark.parametrize("np_", [2, 3])
def test_einsum_distributed(tmp_path, np_):
    script = tmp_path / "run.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    here = os.path.dirname(__file__)

    def run(mode):
        prefix = str(tmp_path / mode)
        out = subprocess.run([mpirun(), "--oversubscribe", "-np", str(np_), sys.executable, str(script), here, mode,
                              prefix], capture_output=True, text=True, env=env, timeout=300)
        assert out.returncode == 0, out.stderr
        return [open(f"{prefix}.{r}").read().strip() for r in range(np_)]

    ok = run("ok")
    assert ok[0].startswith("rel_error") and float(ok[0].split()[-1]) < 1e-12, ok
    assert all(r == "none" for r in ok[1:]), ok
    # A rank whose share fails: every rank raises, none returns a partial sum.
    fail = run("fail")
    assert fail[1].startswith("error shape_mismatch"), fail
    assert all(r.startswith("error backend_failure") and "rank 1 of" in r for r in fail[:1] + fail[2:]), fail
