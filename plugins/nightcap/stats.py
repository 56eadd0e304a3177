"""What ``stats`` counts of a Nightcap roll (``RuleSystem.roll_distribution``): every d10 drawn, and a
single roll's degree against its exact odds (the dice total's distribution, Willpower's +1 on the
total, the botch read from the dice alone, as ``mechanics.degree``). Pure."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.rules.roll_distribution import RollDistribution, distribution, integer
from plugins.nightcap.mechanics import DEGREES, SIDES, degree
from plugins.nightcap.odds import dice_total_distribution

SYSTEM = "nightcap"


@lru_cache(maxsize=256)
def degree_odds(pool: int, willpower: bool) -> Mapping[str, Fraction]:
    totals = dice_total_distribution(pool)
    out = dict.fromkeys(DEGREES, Fraction(0))
    for value, count in totals.items():
        out[degree(value, value + (1 if willpower else 0))] += Fraction(count, totals.denominator)
    return out


def single(roll: Mapping[str, Any], dice: tuple[int, ...]) -> RollDistribution:
    pool = integer(roll, "pool")
    if pool is None or len(dice) != max(pool, 1) or roll.get("degree") not in DEGREES:
        return RollDistribution(SIDES, dice)
    exact = degree_odds(pool, roll.get("willpower") is True)
    return RollDistribution(SIDES, dice, str(roll["degree"]), exact, DEGREES)


def roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    return distribution(roll, SIDES, single)
