"""Exact odds for Night Wanderers, as fractions: successes, quality, and contests with re-rolled
ties (pure; no dice)."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from plugins.nightwanderers.mechanics import QUALITIES, quality

SIDES = 6


def success_chance(difficulty: int) -> Fraction:
    return Fraction(max(0, SIDES + 1 - difficulty), SIDES)


def distribution(pool: int, difficulty: int) -> list[Fraction]:
    """P(exactly k successes), k = 0..pool."""
    p = success_chance(difficulty)
    q = 1 - p
    return [comb(pool, k) * p**k * q ** (pool - k) for k in range(pool + 1)]


def qualities(pool: int, difficulty: int, need: int = 1) -> dict[str, Fraction]:
    """P(each quality): failure, done, good, excellent, masterful."""
    out = dict.fromkeys(QUALITIES, Fraction(0))
    for k, p in enumerate(distribution(pool, difficulty)):
        out[quality(k, need)] += p
    return out


def contest(left: int, right: int, difficulty: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(left wins), P(right wins), P(one round ties)); ties are rolled again."""
    a, b = distribution(left, difficulty), distribution(right, difficulty)
    win = sum((a[i] * b[j] for i in range(len(a)) for j in range(len(b)) if i > j), Fraction(0))
    tie = sum((a[i] * b[i] for i in range(min(len(a), len(b)))), Fraction(0))
    if tie == 1:
        return Fraction(0), Fraction(0), tie
    return win / (1 - tie), (1 - win - tie) / (1 - tie), tie
