"""Reference copy (before fastodds) of gateway/rules/binomial.py.

Exact odds of a success-counting pool, as fractions (pure; no dice): each die of ``sides`` faces
succeeds on ``target`` or more, the dice are independent, and a contest of two pools at the same
target rolls a tie again."""

from __future__ import annotations

from fractions import Fraction
from math import comb


def success_chance(target: int, *, sides: int) -> Fraction:
    """One die's chance to show ``target`` or more."""
    return Fraction(max(0, sides + 1 - target), sides)


def distribution(pool: int, target: int, *, sides: int) -> list[Fraction]:
    """P(exactly k successes) for k = 0..pool."""
    p = success_chance(target, sides=sides)
    q = 1 - p
    return [comb(pool, k) * p**k * q ** (pool - k) for k in range(pool + 1)]


def at_least(pool: int, target: int, need: int, *, sides: int) -> Fraction:
    return sum(distribution(pool, target, sides=sides)[need:], Fraction(0))


def contest(left: int, right: int, target: int, *, sides: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(left wins), P(right wins), P(a single round ties)). Ties are rolled again, so the win
    chances are the one-round chances divided by 1 - P(tie)."""
    a, b = distribution(left, target, sides=sides), distribution(right, target, sides=sides)
    win = sum((a[i] * b[j] for i in range(len(a)) for j in range(len(b)) if i > j), Fraction(0))
    tie = sum((a[i] * b[i] for i in range(min(len(a), len(b)))), Fraction(0))
    lose = 1 - win - tie
    if tie == 1:
        return Fraction(0), Fraction(0), tie
    return win / (1 - tie), lose / (1 - tie), tie
