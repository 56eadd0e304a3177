"""Exact odds of a success-counting pool, as fractions (pure; no dice): each die of ``sides`` faces
succeeds on ``target`` or more, the dice are independent, and a contest of two pools at the same
target rolls a tie again. Worked in integer counts over ``sides ** pool``, made Fractions at the end."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from gateway.rules.counts import cumulative


def success_chance(target: int, *, sides: int) -> Fraction:
    """One die's chance to show ``target`` or more."""
    return Fraction(max(0, sides + 1 - target), sides)


@lru_cache(maxsize=512)
def counts(pool: int, target: int, *, sides: int) -> tuple[tuple[int, ...], int]:
    """(ways to get exactly k successes for k = 0..pool, out of ``sides ** pool``)."""
    hit = max(0, sides + 1 - target)
    miss = sides - hit
    return tuple(comb(pool, k) * hit**k * miss ** (pool - k) for k in range(pool + 1)), sides ** max(pool, 0)


def distribution(pool: int, target: int, *, sides: int) -> list[Fraction]:
    """P(exactly k successes) for k = 0..pool."""
    ways, total = counts(pool, target, sides=sides)
    return [Fraction(w, total) for w in ways]


def at_least(pool: int, target: int, need: int, *, sides: int) -> Fraction:
    ways, total = counts(pool, target, sides=sides)
    return Fraction(sum(ways[need:]), total)


def _round(left: int, right: int, target: int, sides: int) -> tuple[int, int, int, int]:
    """One round of a contest in ways: (left more, right more, tied, all), out of ``all``."""
    a, a_total = counts(left, target, sides=sides)
    b, b_total = counts(right, target, sides=sides)
    total = a_total * b_total
    at_most = cumulative(a)
    # Left wins a round where it has more successes than right's j: every way above at_most[j].
    win = sum(w * (a_total - at_most[min(j, len(a) - 1)]) for j, w in enumerate(b)) if a else 0
    tie = sum(x * y for x, y in zip(a, b, strict=False))
    return win, total - win - tie, tie, total


def contest(left: int, right: int, target: int, *, sides: int) -> tuple[Fraction, Fraction, Fraction]:
    """(P(left wins), P(right wins), P(a single round ties)). Ties are rolled again, so the win
    chances are the one-round chances divided by 1 - P(tie)."""
    win, lose, tie, total = _round(left, right, target, sides)
    if tie == total:
        return Fraction(0), Fraction(0), Fraction(1)
    return Fraction(win, total - tie), Fraction(lose, total - tie), Fraction(tie, total)


def settled(
    left: int, right: int, target: int, *, sides: int, ties: str
) -> tuple[Fraction, Fraction, Fraction]:
    """(P(left wins), P(right wins), P(a single round ties)) when a tie is settled by ``ties``
    (``gateway.rules.ties.TieRule``): ``reroll`` is ``contest``; ``attacker`` gives the tie to
    left, ``defender`` to right, ``standoff`` to nobody (then the first two leave it out)."""
    if ties == "reroll":
        return contest(left, right, target, sides=sides)
    win, lose, tie, total = _round(left, right, target, sides)
    win += tie if ties == "attacker" else 0
    lose += tie if ties == "defender" else 0
    return Fraction(win, total), Fraction(lose, total), Fraction(tie, total)
