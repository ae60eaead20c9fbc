#!/usr/bin/env python3
"""Reference values for metrics/stats.c, computed independently and exactly.

No scipy here: Clopper-Pearson bounds by bisection on the exact binomial
CDF in rational arithmetic (fractions), Fisher's exact test by exact
integer binomial coefficients. Slow, but exact to 2^-64; keep n modest.

usage: stats_ref.py upper X N C          one-sided upper bound
       stats_ref.py interval X N C       two-sided interval "LOWER UPPER"
       stats_ref.py needed X N C TARGET  clean trials to bring upper <= TARGET
       stats_ref.py fisher X1 N1 X2 N2   two-sided exact conditional p-value
Numbers print with 15 significant digits; "null" when undefined.
"""
from fractions import Fraction
from math import comb
import sys

STEPS = 64


def cdf(x, n, p):
    """P(X <= x) for X ~ Bin(n, p), exactly."""
    q = 1 - p
    return sum(comb(n, k) * p ** k * q ** (n - k) for k in range(x + 1))


def solve_p(x, n, alpha):
    """The p with P(X <= x | n, p) = alpha (the CDF falls as p grows)."""
    lo, hi = Fraction(0), Fraction(1)
    for _ in range(STEPS):
        mid = (lo + hi) / 2
        if cdf(x, n, mid) > alpha:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def upper(x, n, c):
    if n <= 0 or x < 0 or x > n:
        return None
    if x == n:
        return Fraction(1)
    return solve_p(x, n, 1 - c)


def interval(x, n, c):
    if n <= 0 or x < 0 or x > n:
        return None, None
    half = (1 - c) / 2
    # lower: P(X >= x | p) = half, i.e. P(X <= x - 1 | p) = 1 - half
    lo = Fraction(0) if x == 0 else solve_p(x - 1, n, 1 - half)
    return lo, upper(x, n, 1 - half)


def needed(x, n, c, target):
    m = 0
    while True:
        u = upper(x, n + m, c)
        if u is not None and u <= target:
            return m
        m += 1


def fisher(x1, n1, x2, n2):
    total = x1 + x2
    w = lambda k: comb(n1, k) * comb(n2, total - k)
    seen = w(x1)
    ks = range(max(0, total - n2), min(total, n1) + 1)
    return Fraction(sum(w(k) for k in ks if w(k) <= seen), comb(n1 + n2, total))


def show(v):
    return "null" if v is None else "%.15g" % float(v)


def main(argv):
    what, args = argv[1], argv[2:]
    num = lambda s: Fraction(s)
    if what == "upper":
        print(show(upper(int(args[0]), int(args[1]), num(args[2]))))
    elif what == "interval":
        print(" ".join(show(v) for v in interval(int(args[0]), int(args[1]), num(args[2]))))
    elif what == "needed":
        print(needed(int(args[0]), int(args[1]), num(args[2]), num(args[3])))
    elif what == "fisher":
        print(show(fisher(*(int(a) for a in args))))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
