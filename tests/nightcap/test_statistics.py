"""Seeded statistics: totals of many rolls against the exact distribution, computed here independently."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from plugins.nightcap.mechanics import roll

# Per face, independent of the plugin's code: 1 -> -1, 2..6 -> 0, 7..9 -> +1, 10 -> +2.
SINGLE = {-1: Fraction(1, 10), 0: Fraction(5, 10), 1: Fraction(3, 10), 2: Fraction(1, 10)}
N = 10_000
# Chi-square critical values at p = 0.001 by degrees of freedom (tables), so a correct roller fails
# about once in a thousand runs, and a biased one (one face off by a few percent) fails every run.
CRITICAL_001 = {
    1: 10.83,
    2: 13.82,
    3: 16.27,
    4: 18.47,
    5: 20.52,
    6: 22.46,
    7: 24.32,
    8: 26.12,
    9: 27.88,
    10: 29.59,
    11: 31.26,
    12: 32.91,
    13: 34.53,
    14: 36.12,
    15: 37.70,
    16: 39.25,
    17: 40.79,
    18: 42.31,
    19: 43.82,
    20: 45.31,
    21: 46.80,
    22: 48.27,
    23: 49.73,
    24: 51.18,
}


def exact_totals(pool: int) -> dict[int, Fraction]:
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(pool):
        nxt: dict[int, Fraction] = {}
        for (total, p), (value, q) in itertools.product(dist.items(), SINGLE.items()):
            nxt[total + value] = nxt.get(total + value, Fraction(0)) + p * q
        dist = nxt
    return dist


def chi_square(observed: Counter[int], exact: dict[int, Fraction], n: int) -> tuple[float, int]:
    """Pool sparse cells (expected < 5) into their neighbours, then the usual statistic and dof."""
    cells: list[tuple[float, int]] = []
    exp_acc, obs_acc = 0.0, 0
    for total in sorted(exact):
        exp_acc += float(exact[total]) * n
        obs_acc += observed.get(total, 0)
        if exp_acc >= 5:
            cells.append((exp_acc, obs_acc))
            exp_acc, obs_acc = 0.0, 0
    if exp_acc and cells:
        last_e, last_o = cells.pop()
        cells.append((last_e + exp_acc, last_o + obs_acc))
    stat = sum((o - e) ** 2 / e for e, o in cells)
    return stat, len(cells) - 1


@pytest.mark.parametrize(("pool", "seed"), [(1, 11), (3, 33), (8, 88)])
def test_totals_match_the_exact_distribution(pool: int, seed: int) -> None:
    dice = SeededDice(seed)
    observed = Counter(roll(pool, dice).total for _ in range(N))
    exact = exact_totals(pool)
    assert sum(exact.values()) == 1
    stat, dof = chi_square(observed, exact, N)
    assert stat < CRITICAL_001[dof], (stat, dof)


def test_a_biased_die_is_caught() -> None:
    """The bound has teeth: a die that shows 10 a little too often fails the same test."""

    class Loaded(SeededDice):
        def roll(self, sides: int) -> int:
            face = super().roll(sides)
            return 10 if face == 5 and self._rng.random() < 0.4 else face

    dice = Loaded(7)
    observed = Counter(roll(3, dice).total for _ in range(N))
    stat, dof = chi_square(observed, exact_totals(3), N)
    assert stat > CRITICAL_001[dof]
