#!/usr/bin/env python3
"""Reference values for metrics/stats.c, computed independently and exactly.

No scipy here: Clopper-Pearson bounds by bisection on the exact binomial
CDF in rational arithmetic (fractions), Fisher's exact test by exact
integer binomial coefficients. Exact to 2^-64.

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


def cdf_above(x, n, a, s, alpha):
    """Whether P(X <= x) > alpha for X ~ Bin(n, p), p = a / 2^s, exactly:
    the CDF times 2^(s n) is the integer sum of C(n,k) a^k (2^s - a)^(n-k),
    so the comparison is one of integers (Fractions would reduce every term
    by a gcd, which made the reference take minutes at n = 214)."""
    b = (1 << s) - a
    total = sum(comb(n, k) * a ** k * b ** (x - k) for k in range(x + 1))
    return total * b ** (n - x) * alpha.denominator > alpha.numerator << (s * n)


def solve_p(x, n, alpha):
    """The p with P(X <= x | n, p) = alpha (the CDF falls as p grows)."""
    lo, hi = 0, 1   # numerators over 2^s
    for s in range(1, STEPS + 1):
        lo, hi = 2 * lo, 2 * hi
        mid = (lo + hi) // 2
        if cdf_above(x, n, mid, s, alpha):
            lo = mid
        else:
            hi = mid
    return Fraction(lo + hi, 1 << (STEPS + 1))


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
    """The least m with upper(x, n + m) <= target: the bound falls as n
    grows, so double m until it is reached, then bisect."""
    def ok(m):
        u = upper(x, n + m, c)
        return u is not None and u <= target

    if ok(0):
        return 0
    lo, hi = 0, 1   # ok(lo) is false, ok(hi) unknown until checked
    while not ok(hi):
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


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
