"""What ``stats`` counts of a Decanter roll (``RuleSystem.roll_distribution``): every d10 drawn
(Advantage's second roll and Major qualities' re-rolls included), and a roll's degree against its
Difficulty Class with its exact odds. Automatic successes and Take Half draw no dice and have no
odds; a roll without a DC has no degree. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.rules.roll_distribution import RollDistribution, distribution, integer
from plugins.decanter.mechanics import DEGREES, QUALITY_NAMES, SIDES, degree
from plugins.decanter.odds import pool_distribution

QUALITY_OF = {name: value for value, name in QUALITY_NAMES.items()}


@lru_cache(maxsize=1024)
def degree_odds(pool: int, quality: int, dc: int) -> Mapping[str, Fraction]:
    out = dict.fromkeys(DEGREES, Fraction(0))
    for successes, p in pool_distribution(pool, quality).items():
        out[degree(successes, dc)] += p
    return out


def single(roll: Mapping[str, Any], dice: tuple[int, ...]) -> RollDistribution:
    pool, dc, quality = integer(roll, "pool"), integer(roll, "dc"), QUALITY_OF.get(roll.get("quality"))
    plain = not roll.get("automatic") and not roll.get("take_half")
    if pool is None or dc is None or quality is None or not plain or roll.get("degree") not in DEGREES:
        return RollDistribution(SIDES, dice)
    return RollDistribution(SIDES, dice, str(roll["degree"]), degree_odds(pool, quality, dc), DEGREES)


def roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    return distribution(roll, SIDES, single)
