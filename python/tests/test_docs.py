"""The examples of docs/python.md run as written (in order, one namespace)."""
import pathlib
import re

import numpy as np
import pytest

import tenferro as tf

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "python.md"


def test_doc_examples():
    if not tf.vulkan_available():
        pytest.skip("the examples use a Vulkan device")
    pytest.importorskip("quimb.tensor")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) >= 5
    ns = {}
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), ns)
    np.testing.assert_allclose(np.asarray(ns["tf"].reshape(ns["t"], (2, 6))), np.arange(12.0).reshape(2, 6))
    assert abs(complex(np.asarray(ns["mps"].H @ ns["mps"])) - 1) < 1e-9
