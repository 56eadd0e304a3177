"""What ``stats`` counts of a Dramatic Systems roll (``RuleSystem.roll_distribution``): every d10
drawn (specialty dice included), and a single roll's degree against its exact odds. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.rules.roll_distribution import RollDistribution, distribution, face_list, integer
from plugins.dramatic.mechanics import DEGREES, SIDES
from plugins.dramatic.odds import roll_odds


@lru_cache(maxsize=1024)
def degree_odds(pool: int, difficulty: int, willpower: bool, specialty: bool) -> Mapping[str, Fraction]:
    odds = roll_odds(pool, difficulty, willpower=willpower, specialty=specialty)
    return {"botch": odds.botch, "failure": odds.failure, "success": odds.success}


def single(roll: Mapping[str, Any], dice: tuple[int, ...]) -> RollDistribution:
    pool, difficulty = integer(roll, "pool"), integer(roll, "difficulty")
    extra = face_list(roll.get("extra_dice")) or ()
    degree = roll.get("degree")
    if pool is None or difficulty is None or len(dice) != pool + len(extra) or degree not in DEGREES:
        return RollDistribution(SIDES, dice)
    exact = degree_odds(pool, difficulty, roll.get("willpower") is True, roll.get("specialty") is True)
    return RollDistribution(SIDES, dice, str(degree), exact, DEGREES)


def roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    return distribution(roll, SIDES, single)
