"""The exact odds against enumeration of every face (small pools), an independent multinomial count
(large pools) and a seeded simulation (chi-square against the exact distribution)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import SeededDice
from plugins.nightcap import mechanics
from plugins.nightcap.mechanics import DEGREES
from plugins.nightcap.odds import contest_odds, dice_total_distribution, roll_odds


def enumerate_roll(pool: int, willpower: bool = False, bonus: int = 0) -> tuple[Counter, Counter, int]:
    """(final totals, degrees, number of face combinations) by scoring every combination of faces."""
    count = pool if pool > 0 else 1
    totals: Counter = Counter()
    degrees: Counter = Counter()
    n = 0
    for faces in itertools.product(range(1, 11), repeat=count):
        roll = mechanics.score(pool, faces, willpower)
        total = roll.total + bonus
        totals[total] += 1
        degrees[mechanics.degree(roll.dice_total, total)] += 1
        n += 1
    return totals, degrees, n


@pytest.mark.parametrize("pool", [-3, 0, 1, 2, 3, 4])
@pytest.mark.parametrize("willpower", [False, True])
@pytest.mark.parametrize("bonus", [0, 2])
def test_roll_odds_match_enumeration(pool: int, willpower: bool, bonus: int) -> None:
    totals, degrees, n = enumerate_roll(pool, willpower, bonus)
    odds = roll_odds(pool, willpower, bonus)
    assert odds.totals == {t: Fraction(c, n) for t, c in totals.items()}
    assert odds.degrees == {d: Fraction(degrees.get(d, 0), n) for d in DEGREES}
    assert odds.at_least_one == Fraction(sum(c for t, c in totals.items() if t >= 1), n)
    assert sum(odds.degrees.values()) == 1


def test_five_dice_match_enumeration() -> None:
    totals, degrees, n = enumerate_roll(5)
    odds = roll_odds(5)
    assert n == 100_000
    assert odds.totals == {t: Fraction(c, n) for t, c in totals.items()}
    assert odds.degrees == {d: Fraction(degrees.get(d, 0), n) for d in DEGREES}


def test_known_values() -> None:
    one = roll_odds(1)
    assert one.degrees == {
        "botch": Fraction(1, 10),
        "failure": Fraction(5, 10),
        "marginal": Fraction(3, 10),
        "solid": Fraction(1, 10),
        "strong": 0,
        "overwhelming": 0,
    }
    # Willpower moves the total by one but a -1 on the die is still a botch.
    assert roll_odds(1, willpower=True).degrees["botch"] == Fraction(1, 10)
    assert roll_odds(1, willpower=True).degrees["marginal"] == Fraction(5, 10)
    chance = roll_odds(0)
    assert chance.chance_die
    assert chance.degrees["botch"] == Fraction(1, 10)
    assert chance.degrees["failure"] == Fraction(8, 10)
    assert chance.degrees["marginal"] == Fraction(1, 10)
    assert chance.at_least_one == Fraction(1, 10)


def multinomial_counts(n: int) -> dict[int, int]:
    """Dice-total counts for n dice, counted independently: choose how many dice show each value."""
    out: dict[int, int] = {}
    for ones in range(n + 1):
        for plus in range(n - ones + 1):
            for tens in range(n - ones - plus + 1):
                blanks = n - ones - plus - tens
                ways = math.factorial(n) // (
                    math.factorial(ones)
                    * math.factorial(plus)
                    * math.factorial(tens)
                    * math.factorial(blanks)
                )
                ways *= 3**plus * 5**blanks
                total = -ones + plus + 2 * tens
                out[total] = out.get(total, 0) + ways
    return out


@pytest.mark.parametrize("n", [6, 17, 50])
def test_large_pools_match_multinomial(n: int) -> None:
    dist = dice_total_distribution(n)
    assert dist.denominator == 10**n
    assert dict(dist.items()) == multinomial_counts(n)


def chi_square_bound(df: int, z: float = 3.09) -> float:
    """Wilson-Hilferty upper 0.1% point of chi-square with ``df`` degrees of freedom."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize(("pool", "willpower"), [(20, False), (50, True)])
def test_large_pools_against_seeded_simulation(pool: int, willpower: bool) -> None:
    rolls = 20_000
    dice = SeededDice(20261130 + pool)
    seen = Counter(mechanics.roll(pool, dice, willpower).total for _ in range(rolls))
    odds = roll_odds(pool, willpower)
    # Merge the tails so that every bin expects at least 5 rolls.
    bins: list[tuple[float, int]] = []
    exp_acc, obs_acc = 0.0, 0
    for total in sorted(odds.totals):
        exp_acc += float(odds.totals[total]) * rolls
        obs_acc += seen.get(total, 0)
        if exp_acc >= 5:
            bins.append((exp_acc, obs_acc))
            exp_acc, obs_acc = 0.0, 0
    if exp_acc or obs_acc:
        e, o = bins.pop()
        bins.append((e + exp_acc, o + obs_acc))
    assert sum(o for _, o in bins) == rolls
    stat = sum((o - e) ** 2 / e for e, o in bins)
    assert stat < chi_square_bound(len(bins) - 1), (stat, len(bins))
    # And the chi-square can fail: the same rolls against a pool one die larger do not fit.
    wrong = roll_odds(pool + 1, willpower)
    wrong_stat = sum(
        (seen.get(t, 0) - float(p) * rolls) ** 2 / (float(p) * rolls)
        for t, p in wrong.totals.items()
        if float(p) * rolls >= 5
    )
    assert wrong_stat > chi_square_bound(len(bins) - 1)


def enumerate_contest(a: int, b: int, wa: bool, wb: bool) -> tuple[Counter, Counter, int]:
    """Outcomes and (winner side, band) counts over every pair of face combinations."""
    lefts = [mechanics.score(a, f, wa) for f in itertools.product(range(1, 11), repeat=max(a, 1))]
    rights = [mechanics.score(b, f, wb) for f in itertools.product(range(1, 11), repeat=max(b, 1))]
    outcomes: Counter = Counter()
    bands: Counter = Counter()
    for left in lefts:
        for right in rights:
            c = mechanics.contest(left, right)
            if c.outcome in ("deadlock", "both_botch"):
                outcomes[c.outcome] += 1
            else:
                side = "left" if c.winner == 0 else "right"
                outcomes[side] += 1
                bands[(side, c.outcome)] += 1
    return outcomes, bands, len(lefts) * len(rights)


@pytest.mark.parametrize(
    ("a", "b", "wa", "wb"),
    [
        (1, 1, False, False),
        (2, 1, False, True),
        (0, 2, True, False),
        (3, 2, False, False),
        (2, 2, True, True),
    ],
)
def test_contest_odds_match_enumeration(a: int, b: int, wa: bool, wb: bool) -> None:
    outcomes, bands, n = enumerate_contest(a, b, wa, wb)
    odds = contest_odds(roll_odds(a, wa), roll_odds(b, wb))
    assert odds.outcomes == {
        k: Fraction(outcomes.get(k, 0), n) for k in ("left", "right", "deadlock", "both_botch")
    }
    for side in ("left", "right"):
        for band in ("narrow", "clear", "decisive"):
            assert odds.margins[side][band] == Fraction(bands.get((side, band), 0), n), (side, band)
    assert sum(odds.outcomes.values()) == 1


def brute_contest(left_totals: dict[int, Fraction], right_totals: dict[int, Fraction]) -> dict[str, Fraction]:
    """Every pair of totals classified by mechanics.contest: an independent check of the prefix sums."""
    out: dict[str, Fraction] = Counter()
    for lt, lp in left_totals.items():
        for rt, rp in right_totals.items():
            c = mechanics.contest(
                mechanics.Roll(1, (), False, lt, False, lt, mechanics.degree(lt, lt)),
                mechanics.Roll(1, (), False, rt, False, rt, mechanics.degree(rt, rt)),
            )
            key = c.outcome if c.winner is None else ("left" if c.winner == 0 else "right") + ":" + c.outcome
            out[key] += lp * rp
    return out


@pytest.mark.parametrize(("a", "b"), [(12, 7), (50, 50), (0, 30)])
def test_large_contests_match_pairwise_sum(a: int, b: int) -> None:
    left, right = roll_odds(a, True), roll_odds(b)
    odds = contest_odds(left, right)
    brute = brute_contest(left.totals, right.totals)
    assert odds.outcomes["deadlock"] == brute["deadlock"]
    assert odds.outcomes["both_botch"] == brute["both_botch"]
    for side in ("left", "right"):
        for band in ("narrow", "clear", "decisive"):
            assert odds.margins[side][band] == brute[f"{side}:{band}"]


def test_contest_50_vs_50_against_seeded_simulation() -> None:
    trials = 20_000
    dice = SeededDice(7)
    seen: Counter = Counter()
    for _ in range(trials):
        c = mechanics.contest(mechanics.roll(50, dice), mechanics.roll(50, dice))
        seen[c.outcome if c.winner is None else ("left" if c.winner == 0 else "right")] += 1
    odds = contest_odds(roll_odds(50), roll_odds(50))
    assert odds.outcomes["left"] == odds.outcomes["right"]  # symmetric
    for key in ("left", "right", "deadlock"):
        p = float(odds.outcomes[key])
        sigma = math.sqrt(trials * p * (1 - p))
        assert abs(seen[key] - trials * p) < 4.5 * sigma, (key, seen[key], trials * p)


def test_json_shape() -> None:
    result = roll_odds(3).as_result()
    assert set(result["degrees"]) == set(DEGREES)
    assert result["totals"]["3"] == pytest.approx(float(roll_odds(3).totals[3]))
    assert result["exact"]["degrees"]["botch"] == "1/10"
    c = contest_odds(roll_odds(3), roll_odds(2)).as_result()
    assert set(c["outcomes"]) == {"left", "right", "deadlock", "both_botch"}
    assert set(c["margins"]) == {"left", "right"}
    assert set(c["margins"]["left"]) == {"narrow", "clear", "decisive"}
    assert sum(c["outcomes"].values()) == pytest.approx(1.0)
