#!/usr/bin/env python3
"""Margins of the certified Ozaki-II product's certificate (docs/gemm.md, "certified"), by a
host simulation of the check in shaders/ozaki/ozaki.comp certify(): A's rows scaled by their sums
of |a| to 2^PA, B's columns by their largest to 2^PB (ozaki_bits_certified), q per element in
units w = 2^(e - 7) of the line's largest, tau = (K - 8) u. Two forms:
dense operands (no zero element; these random ones) take q = floor(x / w) summed over every
second k from K = 2048 (kHalfQMinK), ratio tau wA wB Q / err; operands with zeros take q =
floor(x / w) + (x != 0) over every k, ratio tau wA wB (Q - QA - QB) / err with QA = RA / wA +
NZA; err = (RA + RB) / 2 + min(NZA, NZB) / 4. The certificate needs the ratio >= 1. Prints, per
K, distribution and form, the smallest and median ratio over 8 x 8 outputs. Plain Python (no
numpy): python3 tools/cert_margin.py [--moduli N] [--single] [K ...]; --single: f32 products'
tau = (K - 10) 2^-24 (7 moduli leave f32 margins of 3-250, 6 moduli fall below 1 for lognormal
data), with 7 moduli unless --moduli."""
import math
import random
import sys

MODULI = [256, 255, 253, 251, 247, 241, 239, 233, 229, 227, 223, 211, 199, 197, 193, 191, 181, 179, 173, 167]


def bits_certified(n, k):
    """ozaki_bits_certified: PA + PB = floor(log2 prod m) - 2, PB lowered by (ceil(log2 K) - 2) / 2."""
    total = math.floor(sum(math.log2(m) for m in MODULI[:n])) - 2
    logk = 0 if k <= 1 else math.ceil(math.log2(k))
    pb = (total - max(0, logk - 2)) // 2
    return min(62, total - pb), pb


def line(v, p, by_sum, dense):
    """x = |v| 2^s with s scaling the sum (or the largest) below 2^p; q in units w of the line's
    largest, +1 for a nonzero x unless dense; (q, sum x, nonzero count, w)."""
    ref = sum(abs(t) for t in v) if by_sum else max(abs(t) for t in v)
    s = p - math.frexp(ref)[1]
    x = [abs(t) * 2.0 ** s for t in v]
    w = 2.0 ** (math.frexp(max(x))[1] - 7)
    q = [math.floor(t / w) + (0 if dense or t == 0 else 1) for t in x]
    return q, sum(x), sum(1 for t in v if t != 0), w


DISTS = {
    "normal": lambda r: r.gauss(0, 1),
    "uniform": lambda r: r.uniform(-1, 1),
    "exponential": lambda r: r.expovariate(1.0) * r.choice((-1, 1)),
    "lognormal": lambda r: r.lognormvariate(0, 1.0) * r.choice((-1, 1)),
}


def margins(k, dist, dense, n=14, m=8, seed=0, single=False):
    rng = random.Random(seed)
    draw = DISTS[dist]
    pa, pb = bits_certified(n, k)
    rows = [line([draw(rng) for _ in range(k)], pa, True, dense) for _ in range(m)]
    cols = [line([draw(rng) for _ in range(k)], pb, False, dense) for _ in range(m)]
    tau = (k - 10) * 2.0 ** -24 if single else (k - 8) * 2.0 ** -53
    step = 2 if dense and k >= 2048 else 1
    ratios = []
    for qa, ra, na, wa in rows:
        for qb, rb, nb, wb in cols:
            big_q = sum(qa[i] * qb[i] for i in range(0, k, step))
            low = big_q if dense else big_q - (ra / wa + na) - (rb / wb + nb)
            err = 0.5 * (ra + rb) + 0.25 * min(na, nb)
            ratios.append(tau * low * wa * wb / err)
    ratios.sort()
    return ratios[0], ratios[len(ratios) // 2]


if __name__ == "__main__":
    args = sys.argv[1:]
    single = "--single" in args
    n = 7 if single else 14
    if "--moduli" in args:
        n = int(args[args.index("--moduli") + 1])
        del args[args.index("--moduli") : args.index("--moduli") + 2]
    ks = [int(a) for a in args if a != "--single"] or [512, 1024, 2048, 4096, 8192]
    print(f"moduli {n}, {'f32' if single else 'f64'}")
    print("K      dist         form   min     median")
    for k in ks:
        for dist in DISTS:
            for dense in (True, False):
                lo, med = margins(k, dist, dense, n=n, single=single)
                print(f"{k:<6} {dist:<12} {'dense' if dense else 'zeros':<6} {lo:<7.2f} {med:.2f}")
