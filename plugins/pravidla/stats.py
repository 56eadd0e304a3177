"""What ``stats`` counts of a Pravidla roll (``gateway_roll_distribution``): every d6 drawn (a
contest's re-rolled ties included), and a single roll's degree against its exact (binomial) odds."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache
from typing import Any

from gateway.hookspecs import hookimpl
from gateway.rules.binomial import counts
from gateway.stats.shape import RollDistribution, contest_faces, face_list, integer
from plugins.pravidla.mechanics import DEGREES, SIDES, SYSTEM


@lru_cache(maxsize=1024)
def degree_odds(pool: int, target: int, need: int) -> Mapping[str, Fraction]:
    ways, total = counts(pool, target, sides=SIDES)
    hit = sum(ways[max(need, 0) :])
    return {"failure": Fraction(total - hit, total), "success": Fraction(hit, total)}


@hookimpl
def gateway_roll_distribution(roll: Mapping[str, Any]) -> RollDistribution | None:
    if roll.get("system") != SYSTEM:
        return None
    if roll.get("kind") == "contest":
        return contest_faces(roll, SIDES)
    dice = face_list(roll.get("dice"))
    if roll.get("kind") != "roll" or dice is None:
        return None
    pool, target, need = integer(roll, "pool"), integer(roll, "target"), integer(roll, "need")
    if (
        pool is None
        or target is None
        or need is None
        or len(dice) != pool
        or roll.get("degree") not in DEGREES
    ):
        return RollDistribution(SIDES, dice)
    assert pool is not None and target is not None and need is not None
    return RollDistribution(SIDES, dice, str(roll["degree"]), degree_odds(pool, target, need), DEGREES)
