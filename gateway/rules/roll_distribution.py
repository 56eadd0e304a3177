"""What a rule system tells ``stats`` about one logged roll (``RuleSystem.roll_distribution``'s
answer), and the building block that answers it. Pure: no vault, no I/O."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class RollDistribution:
    """``sides``: the dice's faces run 1..sides. ``faces``: the logged faces to count, every die the
    roll drew (re-rolls and exploding dice included: the face test holds whatever decided to draw
    the next die, but only when no drawn face is left out). ``outcome``: the label of the roll's
    result (a degree word); ``exact``: the exact probability of each label for a roll of the same
    kind (pool, difficulty, ...), None for results the system has no exact odds for (then the roll
    counts towards the faces only)."""

    sides: int
    faces: tuple[int, ...]
    outcome: str | None = None
    exact: Mapping[str, Fraction] | None = None
    labels: tuple[str, ...] = ()  # every label in its natural order (worst first), for pooling


def integer(roll: Mapping[str, Any], key: str) -> int | None:
    """``roll[key]`` when it is an int (not a bool), else None."""
    value = roll.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def face_list(value: Any) -> tuple[int, ...] | None:
    """A logged list of faces, None when it is not a list of ints."""
    if not isinstance(value, list) or not all(isinstance(f, int) and not isinstance(f, bool) for f in value):
        return None
    return tuple(value)


def contest_faces(roll: Mapping[str, Any], sides: int) -> RollDistribution | None:
    """A contest's every face (each side's ``dice``, tie re-rolls included there), with no result
    label: the outcome of a contest depends on both pools, so only the faces are tested."""
    found = roll.get("sides")
    if not isinstance(found, list) or not found:
        return None
    faces: list[int] = []
    for side in found:
        dice = face_list(side.get("dice") if isinstance(side, Mapping) else None)
        if dice is None:
            return None
        faces.extend(dice)
    return RollDistribution(sides, tuple(faces))


Single = Callable[[Mapping[str, Any], tuple[int, ...]], RollDistribution]


def distribution(roll: Mapping[str, Any], sides: int, single: Single) -> RollDistribution | None:
    """A rule system's ``roll_distribution`` for dice of ``sides`` faces: None for kinds other than
    ``roll`` and contests, and for a roll logged again with a change (``amends``: a Decanter Story
    Point bonus re-reads a logged roll and logs it anew, its dice already counted); a contest's faces
    (``contest_faces``); ``single(roll, dice)`` for a single roll with its logged faces."""
    if roll.get("amends"):
        return None
    if isinstance(roll.get("sides"), list):
        return contest_faces(roll, sides)
    dice = face_list(roll.get("dice"))
    if roll.get("kind") != "roll" or dice is None:
        return None
    return single(roll, dice)
