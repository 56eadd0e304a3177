"""Chi-square checks of seeded rolls against exact distributions, computed here, independent of the
code under test. The bounds are Wilson-Hilferty approximations of the chi-square quantile."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction


def wilson_hilferty(df: int, z: float) -> float:
    """The chi-square quantile with ``df`` degrees of freedom at the normal quantile ``z``."""
    k = float(df)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


# --- counts by value, bins merged from the low end --------------------------------------------------


def chi_square_bound(df: int, z: float = 3.09) -> float:
    """p = 0.001, so a correct roller fails 1 run in 1000."""
    return wilson_hilferty(df, z)


def binned_chi_square(observed: Counter[int], expected: dict[int, Fraction], n: int) -> tuple[float, int]:
    """Chi-square over bins merged from the low end until each expects at least 5 of ``n`` rolls:
    (the statistic, its degrees of freedom)."""
    bins: list[tuple[float, int]] = []
    acc_e, acc_o = 0.0, 0
    for value in sorted(set(expected) | set(observed)):
        acc_e += float(expected.get(value, 0)) * n
        acc_o += observed.get(value, 0)
        if acc_e >= 5:
            bins.append((acc_e, acc_o))
            acc_e, acc_o = 0.0, 0
    if acc_e or acc_o:
        last_e, last_o = bins.pop()
        bins.append((last_e + acc_e, last_o + acc_o))
    return sum((o - e) ** 2 / e for e, o in bins), len(bins) - 1


# --- counts per cell, thin tail cells pooled -------------------------------------------------------


def critical(df: int, z: float = 3.719) -> float:
    """p = 0.0001."""
    return wilson_hilferty(df, z)


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def pooled(
    observed: Sequence[int], expected: Sequence[float], minimum: float = 5.0
) -> tuple[list[int], list[float]]:
    """Merge tail cells whose expected count is below ``minimum`` into their neighbour."""
    obs, exp = list(observed), list(expected)
    while len(exp) > 2 and exp[-1] < minimum:
        last_obs, last_exp = obs.pop(), exp.pop()
        obs[-1] += last_obs
        exp[-1] += last_exp
    while len(exp) > 2 and exp[0] < minimum:
        first_obs, first_exp = obs.pop(0), exp.pop(0)
        obs[0] += first_obs
        exp[0] += first_exp
    return obs, exp


def assert_binomial(successes: Callable[[], int], pool: int, p: float, n: int = 20_000) -> None:
    """``n`` rolls' successes follow the binomial of ``pool`` dice that each succeed with ``p``."""
    observed = [0] * (pool + 1)
    for _ in range(n):
        observed[successes()] += 1
    expected = [n * math.comb(pool, k) * p**k * (1 - p) ** (pool - k) for k in range(pool + 1)]
    obs, exp = pooled(observed, expected)
    assert chi_square(obs, exp) < critical(len(obs) - 1)
