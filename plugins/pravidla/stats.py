"""What ``stats`` counts of a Pravidla roll (``RuleSystem.roll_distribution``): every d6 drawn (a
contest's re-rolled ties included), and a single roll's degree against its exact (binomial) odds."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.rules.binomial import counts
from gateway.rules.roll_distribution import RollDistribution, distribution, integer
from plugins.pravidla.mechanics import DEGREES, SIDES


@lru_cache(maxsize=1024)
def degree_odds(pool: int, target: int, need: int) -> Mapping[str, Fraction]:
    ways, total = counts(pool, target, sides=SIDES)
    hit = sum(ways[max(need, 0) :])
    return {"failure": Fraction(total - hit, total), "success": Fraction(hit, total)}


def single(roll: Mapping[str, Any], dice: tuple[int, ...]) -> RollDistribution:
    pool, target, need = integer(roll, "pool"), integer(roll, "target"), integer(roll, "need")
    if pool is None or target is None or need is None or len(dice) != pool:
        return RollDistribution(SIDES, dice)
    if roll.get("degree") not in DEGREES:
        return RollDistribution(SIDES, dice)
    return RollDistribution(SIDES, dice, str(roll["degree"]), degree_odds(pool, target, need), DEGREES)


def roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    return distribution(roll, SIDES, single)
