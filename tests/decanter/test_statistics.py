"""Seeded statistics: Decanter's rolled success distribution against the exact one (chi-square)."""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from gateway.dice import SeededDice
from plugins.decanter import mechanics as m
from plugins.decanter import odds

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


def chi_square_bound(df: int, z: float = 3.09) -> float:
    """The chi-square quantile at p = 0.001 (Wilson-Hilferty), so a correct roller fails 1 run in 1000."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def chi_square(observed: Counter[int], expected: dict[int, Fraction], n: int) -> tuple[float, int]:
    """Chi-square over bins merged from the low end until each expects at least 5 rolls."""
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
    stat = sum((o - e) ** 2 / e for e, o in bins)
    return stat, len(bins) - 1


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
    stat, df = chi_square(observed, expected, ROLLS)
    assert df >= 3
    assert stat < chi_square_bound(df), (stat, df)


def test_chi_square_catches_a_wrong_distribution() -> None:
    """The test can fail: Advantage's rolls are far from the plain distribution."""
    dice = SeededDice(16)
    observed = Counter(m.roll(4, dice, quality=1).successes for _ in range(ROLLS))
    stat, df = chi_square(observed, exact_plain(4), ROLLS)
    assert stat > chi_square_bound(df)
