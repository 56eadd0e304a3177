"""The chi-square distribution's upper tail, for the p-values ``stats`` prints. Pure.

Hand-written rather than imported: the gateway does not depend on SciPy (a large native wheel for one
function), and the regularised incomplete gamma function is a few lines of classic numerics. Each
value is computed the way Numerical Recipes (2nd ed., section 6.2) does it: the power series for
``x < a + 1``, where it converges fast, and Lentz's continued fraction above, each to a relative
error near 1e-15. ``tests/core/test_stats_pvalue.py`` checks it against published values.
"""

from __future__ import annotations

import math

EPSILON = 1e-15
MAX_TERMS = 10_000  # both expansions converge in about sqrt(a) terms; the cap only bounds the loop
TINY = 1e-300  # keeps Lentz's denominators off zero


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its power series (converges fast for x < a + 1)."""
    term = total = 1.0 / a
    n = a
    for _ in range(MAX_TERMS):
        n += 1.0
        term *= x / n
        total += term
        if abs(term) < abs(total) * EPSILON:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction, evaluated with the modified Lentz method (x >= a + 1)."""
    b = x + 1.0 - a
    c = 1.0 / TINY
    d = 1.0 / b
    h = d
    for i in range(1, MAX_TERMS):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = TINY if abs(d) < TINY else d
        c = b + an / c
        c = TINY if abs(c) < TINY else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < EPSILON:
            break
    return h * math.exp(-x + a * math.log(x) - math.lgamma(a))


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), for a > 0, x >= 0."""
    if a <= 0:
        raise ValueError("upper_gamma needs a > 0")
    if x < 0:
        raise ValueError("upper_gamma needs x >= 0")
    if x == 0:
        return 1.0
    if x < a + 1.0:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi_square_p(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom: Q(df/2, statistic/2)."""
    if df < 1:
        raise ValueError("a chi-square test needs at least one degree of freedom")
    return upper_gamma(df / 2.0, max(statistic, 0.0) / 2.0)
