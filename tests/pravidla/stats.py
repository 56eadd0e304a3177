"""A chi-square bound computed here, independent of the code under test."""

from __future__ import annotations

import math
from collections.abc import Sequence


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> float:
    return sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True) if e > 0)


def critical(df: int, z: float = 3.719) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile; z = 3.719 is p = 0.0001."""
    k = float(df)
    return k * (1 - 2 / (9 * k) + z * math.sqrt(2 / (9 * k))) ** 3


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
