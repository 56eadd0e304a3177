"""Seeded statistics: Decanter's rolled success distribution against the exact one (chi-square)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from gateway.core.dice import SeededDice
from plugins.decanter import mechanics as m
from plugins.decanter import odds
from tests.helpers.chi_square import binned_chi_square, chi_square_bound

ROLLS = 20_000


def exact_plain(pool: int) -> dict[int, Fraction]:
    """Independent of odds.py: multinomial counts of (1s, 2-5s, 6-9s, 10s)."""
    out: dict[int, Fraction] = {}
    for ones, blanks, hits, tens in product(range(pool + 1), repeat=4):
        if ones + blanks + hits + tens != pool:
            continue
        ways = math.factorial(pool) // (
            math.factorial(ones) * math.factorial(blanks) * math.factorial(hits) * math.factorial(tens)
        )
        p = Fraction(ways) * Fraction(1, 10) ** ones * Fraction(4, 10) ** blanks
        p *= Fraction(4, 10) ** hits * Fraction(1, 10) ** tens
        value = hits + 2 * tens - ones
        out[value] = out.get(value, Fraction(0)) + p
    return out


def test_exact_plain_matches_the_odds_module() -> None:
    for pool in (1, 4, 7):
        assert exact_plain(pool) == odds.pool_distribution(pool)


@pytest.mark.parametrize(
    ("pool", "quality", "seed"), [(3, 0, 11), (6, 0, 12), (4, 1, 13), (4, -2, 14), (5, 2, 15)]
)
def test_seeded_success_distribution(pool: int, quality: int, seed: int) -> None:
    dice = SeededDice(seed)
    observed = Counter(m.roll(pool, dice, quality=quality).successes for _ in range(ROLLS))
    expected = exact_plain(pool) if quality == 0 else odds.pool_distribution(pool, quality)
    stat, df = binned_chi_square(observed, expected, ROLLS)
    assert df >= 3
    assert stat < chi_square_bound(df), (stat, df)


def test_chi_square_catches_a_wrong_distribution() -> None:
    """The test can fail: Advantage's rolls are far from the plain distribution."""
    dice = SeededDice(16)
    observed = Counter(m.roll(4, dice, quality=1).successes for _ in range(ROLLS))
    stat, df = binned_chi_square(observed, exact_plain(4), ROLLS)
    assert stat > chi_square_bound(df)
