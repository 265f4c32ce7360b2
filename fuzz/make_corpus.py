#!/usr/bin/env python3
"""Writes the seed corpora of the fuzzing harnesses (fuzz/README.md).

corpus/parsers: small op-case files, one case each, taken from tests/cases (the first case of
up to 6 ops of each family file, compacted), the small einsum instances of data/instances and the
CLI's malformed-input files of tests/data.
corpus/ops: inputs of fuzz_ops, 4 per op call kind. fuzz_ops reads its integers from the end
of the input (FuzzedDataProvider): the last 8 bytes seed the values, the byte before them
picks the op (its value modulo 11, in the order of ops_fuzz.cpp's switch), and every byte
further to the front decides one shape, axis or config choice; the bytes are seeded random.

Run from the repository root: python3 fuzz/make_corpus.py (it replaces both folders' seed
files, not the regression files named regress-*).
"""
import json
import pathlib
import random
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
OPS = ["gather", "scatter", "pad", "slice", "dynamic_slice", "dot_general", "reduce", "transpose",
       "broadcast_in_dim", "cast", "einsum"]


def clear(folder):
    folder.mkdir(parents=True, exist_ok=True)
    for f in folder.iterdir():
        if f.is_file() and not f.name.startswith("regress-"):
            f.unlink()


def parsers():
    out = CORPUS / "parsers"
    clear(out)
    for family in ["elementwise", "cast", "structural", "reduce", "dot_general", "indexing", "errors", "fuzz"]:
        data = json.loads((ROOT / "tests" / "cases" / f"{family}.json").read_text())
        seen = set()
        for case in data["cases"]:
            if case["op"] in seen or len(seen) == 6:
                continue
            seen.add(case["op"])
            text = json.dumps(case, separators=(",", ":"))
            if len(text) <= 2048:
                (out / f"case-{family}-{case['op']}.json").write_text(text + "\n")
    for name in ["bin_matmul_256", "bin_batched_outer_product_noncompact_j16_k16_o64_t64", "nary_matmul_chain_64",
                 "str_nw_mera_open_26"]:
        shutil.copy(ROOT / "data" / "instances" / f"{name}.json", out / f"instance-{name}.json")
    for name in ["einsum_output_2e64", "einsum_operand_2e62", "einsum_path_index_2e32", "einsum_control_char_name",
                 "control_char_names", "huge_empty_result", "deep_nesting"]:
        shutil.copy(ROOT / "tests" / "data" / f"{name}.json", out / f"data-{name}.json")


def ops():
    out = CORPUS / "ops"
    clear(out)
    rng = random.Random(44)
    for k, op in enumerate(OPS):
        for i in range(4):
            body = bytearray(rng.randrange(256) for _ in range(rng.randrange(48, 160)))
            body[-9] = k  # the op of the first call
            (out / f"{op}-{i}").write_bytes(bytes(body))


if __name__ == "__main__":
    parsers()
    ops()
