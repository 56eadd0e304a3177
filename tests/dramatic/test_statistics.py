"""Seeded statistics: Dramatic Systems' rolled successes against the exact distribution (chi-square)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from gateway.core.dice import SeededDice
from plugins.dramatic import mechanics as m
from plugins.dramatic import odds
from tests.helpers.chi_square import binned_chi_square, chi_square_bound

ROLLS = 20_000


def exact_plain(pool: int, difficulty: int, willpower: bool) -> dict[int, Fraction]:
    """Independent of odds.py: multinomial counts of (1s, misses, hits), net clamped at 0."""
    p_one, p_hit = Fraction(1, 10), Fraction(11 - difficulty, 10)
    p_miss = 1 - p_one - p_hit
    out: dict[int, Fraction] = {}
    for ones, hits in product(range(pool + 1), repeat=2):
        misses = pool - ones - hits
        if misses < 0:
            continue
        ways = math.factorial(pool) // (math.factorial(ones) * math.factorial(hits) * math.factorial(misses))
        p = ways * p_one**ones * p_hit**hits * p_miss**misses
        net = max(hits + (1 if willpower else 0) - ones, 0)
        out[net] = out.get(net, Fraction(0)) + p
    return out


def test_exact_plain_matches_the_odds_module() -> None:
    for pool, difficulty, wp in ((1, 6, False), (5, 7, True), (8, 3, False)):
        assert odds.roll_odds(pool, difficulty, willpower=wp).successes == exact_plain(pool, difficulty, wp)


@pytest.mark.parametrize(
    ("pool", "difficulty", "wp", "seed"), [(5, 6, False, 21), (8, 7, True, 22), (3, 4, False, 23)]
)
def test_seeded_plain(pool: int, difficulty: int, wp: bool, seed: int) -> None:
    dice = SeededDice(seed)
    observed = Counter(m.roll(pool, difficulty, dice, willpower=wp).successes for _ in range(ROLLS))
    stat, df = binned_chi_square(observed, exact_plain(pool, difficulty, wp), ROLLS)
    assert df >= 3 and stat < chi_square_bound(df), (stat, df)


def test_seeded_specialty() -> None:
    dice = SeededDice(24)
    observed = Counter(m.roll(6, 6, dice, specialty=True).successes for _ in range(ROLLS))
    exact = odds.roll_odds(6, 6, specialty=True)
    stat, df = binned_chi_square(observed, exact.successes, ROLLS)
    assert df >= 4 and stat < chi_square_bound(df), (stat, df)


def test_seeded_degrees() -> None:
    dice = SeededDice(25)
    observed = Counter(m.roll(3, 8, dice).degree for _ in range(ROLLS))
    exact = odds.roll_odds(3, 8)
    expected = {0: exact.botch, 1: exact.failure, 2: exact.success}
    as_index = Counter({m.DEGREES.index(k): v for k, v in observed.items()})
    stat, df = binned_chi_square(as_index, expected, ROLLS)
    assert df == 2 and stat < chi_square_bound(df), (stat, df)


def test_chi_square_catches_a_wrong_distribution() -> None:
    """The test can fail: a specialty's rolls are far from the plain distribution."""
    dice = SeededDice(26)
    observed = Counter(m.roll(6, 6, dice, specialty=True).successes for _ in range(ROLLS))
    stat, df = binned_chi_square(observed, exact_plain(6, 6, False), ROLLS)
    assert stat > chi_square_bound(df)
