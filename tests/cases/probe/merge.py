"""Writes ../probe.json from the generators' p_<family>.json files in $PROBE_OUT (default: the
current folder): the cases with an expected value or error, names prefixed by the family."""
import json, os

FAMILIES = ["elem", "analytic", "cast", "struct", "index", "misc", "final", "reduce_dot"]
src = os.environ.get("PROBE_OUT", ".")
out = []
for f in FAMILIES:
    for c in json.load(open(os.path.join(src, "p_%s.json" % f)))["cases"]:
        if "expected" in c or "expected_error" in c:
            out.append(dict(c, name=f + "/" + c["name"]))
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "probe.json"), "w") as fh:
    fh.write('{"cases": [\n' + ",\n".join(json.dumps(c) for c in out) + "\n]}\n")
print(len(out), "cases")
