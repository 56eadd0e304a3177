"""Seeded statistics: explode and reroll as rolled follow their exact odds (chi-square, issue 33).
The dice are seeded, so each test gives the same verdict every run; a roller that drew one die too
many or too few, or rerolled the wrong faces, fails it by far."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from gateway.features.notation.odds import odds
from gateway.features.notation.parse import parse
from gateway.features.notation.roll import roll_once
from gateway.features.stats.pvalue import chi_square_p

ROLLS = 20_000


def _pooled(exact: dict[int, Fraction], minimum: float) -> list[list[int]]:
    """Totals grouped, lowest first, so that each group expects at least ``minimum`` rolls."""
    groups: list[list[int]] = []
    current: list[int] = []
    mass = 0.0
    for total in sorted(exact):
        current.append(total)
        mass += float(exact[total]) * ROLLS
        if mass >= minimum:
            groups.append(current)
            current, mass = [], 0.0
    if current:
        groups[-1].extend(current)
    return groups


def p_value(text: str, seed: int, against: str | None = None) -> float:
    """The chi-square p-value of ``ROLLS`` seeded rolls of ``text`` against the exact odds of
    ``against`` (``text`` itself by default)."""
    exact = dict(odds(against or text).totals)
    expression = parse(text)
    dice = SeededDice(seed)
    seen = Counter(roll_once(expression, dice).total for _ in range(ROLLS))
    assert set(seen) <= set(exact), "a total the odds call impossible"
    groups = _pooled(exact, 10)
    statistic = 0.0
    for group in groups:
        expected = sum(float(exact[t]) for t in group) * ROLLS
        observed = sum(seen[t] for t in group)
        statistic += (observed - expected) ** 2 / expected
    return chi_square_p(statistic, len(groups) - 1)


@pytest.mark.parametrize("text", ["3d6!", "2d10!>=9", "4d6r1", "4d6rr2", "4d6ro<3", "3d10>=8!f1"])
def test_rolls_follow_their_exact_odds(text: str) -> None:
    assert p_value(text, seed=33) > 0.001


@pytest.mark.parametrize(
    ("rolled", "against"), [("4d6r1", "4d6"), ("4d6rr2", "4d6r2"), ("2d10!>=9", "2d10!"), ("4d6r1", "4d6r2")]
)
def test_the_test_tells_a_near_miss(rolled: str, against: str) -> None:
    assert p_value(rolled, seed=33, against=against) < 1e-6
