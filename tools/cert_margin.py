#!/usr/bin/env python3
"""Margins of the certified Ozaki-II product's certificate (docs/gemm.md, "certified"), by a
host simulation of the check in shaders/ozaki/ozaki.comp certify() as first built (both
operands scaled by their largest; A's rows are now scaled by their sums, which about doubles
the margins in the same simulation): for random operands, per
output the ratio tau 2^(2P-14) (Q - QA - QB) / ((RA + RB) / 2 + min(NZA, NZB) / 4), which the
certificate needs >= 1. Prints, per K and distribution, P and the smallest and median ratio over
6 x 6 outputs. Plain Python (no numpy): python3 tools/cert_margin.py [K ...]"""
import math
import random
import sys

MODULI = [256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 211, 199, 197, 193, 191, 181, 179, 173, 167]


def bits(n, k):
    """ozaki_bits: the largest P with 2P + ceil(log2 K) + 2 <= floor(log2 prod m), at most 62."""
    log2m = sum(math.log2(m) for m in MODULI[:n])
    return min(62, (math.floor(log2m) - 2 - math.ceil(math.log2(k))) // 2)


def line(v, p):
    """x = |v| 2^s (s = P - e, 2^(e-1) <= max |v| < 2^e), q per element, sum x, nonzero count."""
    e = math.frexp(max(abs(t) for t in v))[1]
    x = [abs(t) * 2.0 ** (p - e) for t in v]
    q = [math.floor(t * 2.0 ** (7 - p)) + (1 if t != 0 else 0) for t in x]
    return q, sum(x), sum(1 for t in v if t != 0)


def margins(k, dist, n=14, m=6, seed=0):
    rng = random.Random(seed)
    draw = (lambda: rng.gauss(0, 1)) if dist == "normal" else (lambda: rng.uniform(-1, 1))
    p = bits(n, k)
    rows = [line([draw() for _ in range(k)], p) for _ in range(m)]
    cols = [line([draw() for _ in range(k)], p) for _ in range(m)]
    tau = (k - 7 * n - 8) * 2.0 ** -53
    ratios = []
    for qa, ra, na in rows:
        for qb, rb, nb in cols:
            big_q = sum(s * t for s, t in zip(qa, qb))
            low = big_q - (ra * 2.0 ** (7 - p) + na) - (rb * 2.0 ** (7 - p) + nb)
            err = 0.5 * (ra + rb) + 0.25 * min(na, nb)
            ratios.append(tau * low * 2.0 ** (2 * p - 14) / err)
    ratios.sort()
    return p, ratios[0], ratios[len(ratios) // 2]


if __name__ == "__main__":
    ks = [int(a) for a in sys.argv[1:]] or [512, 1024, 2048, 4096, 8192]
    print("K      dist     P   min    median")
    for k in ks:
        for dist in ("normal", "uniform"):
            p, lo, med = margins(k, dist)
            print(f"{k:<6} {dist:<8} {p:<3} {lo:<6.1f} {med:.1f}")
