#!/usr/bin/env python3
"""Merges the conformance audit into ../audit.json: the cases of the audit's generators (this
folder; each writes /tmp/audit/<name>.json, idx.py as gfuzz.json, then runs it on both backends
through h.py) that carry an expected value or error, names prefixed by their file.
Left out: s_upd_window_ext_vs_operand (its expectation took the replace combiner for scatter's
default add; tenferro's 3.0 at [0, 1] is right). Run: for g in b2 b3 b4 b5 b7 b8 b10 b11 idx
sfuzz rfuzz dfuzz stfuzz; do python3 $g.py; done; python3 merge.py."""
import json
import os

FILES = ["b2", "b3", "b4", "b5", "b7", "b8", "b10", "b11", "gfuzz", "sfuzz", "rfuzz", "dfuzz", "stfuzz"]
DROP = {"s_upd_window_ext_vs_operand"}
out = []
for f in FILES:
    d = json.load(open(f"/tmp/audit/{f}.json"))
    for c in d["cases"]:
        if c["name"] in DROP or not ("expected" in c or "expected_error" in c):
            continue
        c = dict(c, name=f"{f}/{c['name']}")
        out.append(c)
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "audit.json")
with open(path, "w") as fh:
    fh.write('{"cases": [\n' + ",\n".join(json.dumps(c, separators=(",", ":")) for c in out) + "\n]}\n")
print(f"{path}: {len(out)} cases")
