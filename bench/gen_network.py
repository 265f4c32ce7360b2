#!/usr/bin/env python3
"""Writes einsum instance files of tensor networks that are not in data/instances, for the
`tenferro einsum` CLI (its planner plans them: no stored paths).

  grid SIDE BOND         a SIDE x SIDE square lattice, every tensor one per site with a bond
                         of extent BOND to each neighbour (a PEPS-like closed network: a scalar)
  regular N DEGREE BOND  a random DEGREE-regular graph of N tensors (--seed), closed
  mpo N CHI W PHYS       <psi|H|psi>: an MPS of bond CHI on N sites, an MPO of bond W, physical
                         extent PHYS (an MPS-MPO-MPS sandwich, closed)

Each prints one JSON object (name, format_string, shapes) to stdout, or to --out.
  python3 bench/gen_network.py grid 8 12 --out /tmp/grid_8_12.json
  tenferro einsum /tmp/grid_8_12.json --backend vulkan --dtype f32 --memory-limit 32GiB
"""
import argparse
import json
import random
import sys


def label(k):
    # Labels beyond ASCII letters: any Unicode code point but , - > . is a label.
    return chr(0x100 + k)


def grid(side, bond):
    edges = []
    for r in range(side):
        for c in range(side):
            v = r * side + c
            if c + 1 < side:
                edges.append((v, v + 1))
            if r + 1 < side:
                edges.append((v, v + side))
    return side * side, edges, bond


def regular(n, degree, bond, seed):
    # Pairing model: stubs matched at random, retried until simple (no loops, no double edges).
    rng = random.Random(seed)
    for _ in range(1000):
        stubs = [v for v in range(n) for _ in range(degree)]
        rng.shuffle(stubs)
        edges = sorted({tuple(sorted(stubs[i:i + 2])) for i in range(0, len(stubs), 2)})
        if len(edges) * 2 == len(stubs) and all(a != b for a, b in edges):
            return n, edges, bond
    sys.exit("gen_network: no simple regular graph found; change --seed")


def from_edges(n, edges, bond):
    terms = [[] for _ in range(n)]
    for k, (a, b) in enumerate(edges):
        terms[a].append(label(k))
        terms[b].append(label(k))
    return ["".join(t) for t in terms], [[bond] * len(t) for t in terms]


def mpo(n, chi, w, phys):
    # Labels: ket bonds, bra bonds, MPO bonds, ket-MPO physical, MPO-bra physical.
    k = 0

    def new():
        nonlocal k
        k += 1
        return label(k - 1)

    ket_b = [new() for _ in range(n - 1)]
    bra_b = [new() for _ in range(n - 1)]
    op_b = [new() for _ in range(n - 1)]
    p_in = [new() for _ in range(n)]
    p_out = [new() for _ in range(n)]
    terms, shapes = [], []
    for bonds, phys_labels, bond in ((ket_b, p_in, chi), (bra_b, p_out, chi)):
        for i in range(n):
            t = ([bonds[i - 1]] if i > 0 else []) + [phys_labels[i]] + ([bonds[i]] if i + 1 < n else [])
            terms.append("".join(t))
            shapes.append([bond if lab in bonds else phys for lab in t])
    for i in range(n):
        t = ([op_b[i - 1]] if i > 0 else []) + [p_in[i], p_out[i]] + ([op_b[i]] if i + 1 < n else [])
        terms.append("".join(t))
        shapes.append([w if lab in op_b else phys for lab in t])
    return terms, shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kind", choices=["grid", "regular", "mpo"])
    ap.add_argument("sizes", type=int, nargs="+")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out")
    a = ap.parse_args()
    want = {"grid": 2, "regular": 3, "mpo": 4}[a.kind]
    if len(a.sizes) != want:
        ap.error(f"{a.kind} takes {want} sizes")
    if a.kind == "grid":
        terms, shapes = from_edges(*grid(*a.sizes))
    elif a.kind == "regular":
        terms, shapes = from_edges(*regular(*a.sizes, a.seed))
    else:
        terms, shapes = mpo(*a.sizes)
    name = f"gen_{a.kind}_" + "_".join(map(str, a.sizes))
    inst = {"name": name, "format_string": ",".join(terms) + "->", "shapes": shapes}
    text = json.dumps(inst, ensure_ascii=False)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    else:
        print(text)


if __name__ == "__main__":
    main()
