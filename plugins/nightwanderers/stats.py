"""What ``stats`` counts of a Night Wanderers roll (``RuleSystem.roll_distribution``): every d6 drawn
(contests' re-rolled ties included), and a single roll's quality against its exact odds. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.rules.roll_distribution import RollDistribution, distribution, integer
from plugins.nightwanderers.mechanics import QUALITIES, SIDES
from plugins.nightwanderers.odds import qualities


@lru_cache(maxsize=1024)
def quality_odds(pool: int, difficulty: int, need: int) -> Mapping[str, Fraction]:
    return qualities(pool, difficulty, need)


def single(roll: Mapping[str, Any], dice: tuple[int, ...]) -> RollDistribution:
    pool, difficulty, need = integer(roll, "pool"), integer(roll, "difficulty"), integer(roll, "need")
    if pool is None or difficulty is None or need is None or len(dice) != pool:
        return RollDistribution(SIDES, dice)
    if roll.get("degree") not in QUALITIES:
        return RollDistribution(SIDES, dice)
    exact = quality_odds(pool, difficulty, need)
    return RollDistribution(SIDES, dice, str(roll["degree"]), exact, QUALITIES)


def roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    return distribution(roll, SIDES, single)
