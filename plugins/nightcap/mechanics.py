"""Nightcap's dice, as pure functions (RULINGS, "Nightcap"). No I/O, no clock: dice come in.

House rules (``plugins.nightcap.house``) arrive as keyword arguments whose defaults are the book's:
``tens_double`` (a 10 is +2; off: +1), ``ones_subtract`` (a 1 is -1; off: 0) and ``chance_die``
(a pool of 0 or less rolls one chance die; off: it rolls nothing, a dice total of 0). The chance
die itself reads as the book says whatever the first two say: it is its own rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway import ContestResult, DiceSource, RollResult

SIDES = 10
DEGREES = ("botch", "failure", "marginal", "solid", "strong", "overwhelming")
OUTCOMES = ("deadlock", "narrow", "clear", "decisive", "both_botch")


def face_value(face: int, *, tens_double: bool = True, ones_subtract: bool = True) -> int:
    """7, 8, 9: one success; 10: two; 1: takes one away; 2-6: nothing."""
    if face == 10:
        return 2 if tens_double else 1
    if face >= 7:
        return 1
    if face == 1:
        return -1 if ones_subtract else 0
    return 0


def chance_value(face: int) -> int:
    """The chance die: only a 10 succeeds (one success), a 1 botches, the rest fail."""
    return 1 if face == 10 else -1 if face == 1 else 0


def degree(dice_total: int, total: int) -> str:
    """Botch is read from the dice alone (Willpower cannot save it); the rest from the final total."""
    if dice_total < 0:
        return "botch"
    if total <= 0:
        return "failure"
    if total == 1:
        return "marginal"
    if total <= 3:
        return "solid"
    if total <= 5:
        return "strong"
    return "overwhelming"


@dataclass(frozen=True)
class Roll:
    pool: int
    dice: tuple[int, ...]
    chance_die: bool
    dice_total: int
    willpower: bool
    total: int
    degree: str

    def result(self) -> RollResult:
        details = {"chance_die": self.chance_die, "dice_total": self.dice_total, "willpower": self.willpower}
        return RollResult("nightcap", self.pool, self.dice, self.total, self.degree, details=details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def score(
    pool: int,
    faces: tuple[int, ...],
    willpower: bool = False,
    *,
    tens_double: bool = True,
    ones_subtract: bool = True,
    chance_die: bool = True,
) -> Roll:
    """Read already-rolled faces for a pool (pool <= 0 means the faces are one chance die, or none
    without the chance die)."""
    chance = pool <= 0 and chance_die
    if chance:
        dice_total = sum(chance_value(f) for f in faces)
    else:
        dice_total = sum(face_value(f, tens_double=tens_double, ones_subtract=ones_subtract) for f in faces)
    total = dice_total + (1 if willpower else 0)
    return Roll(pool, faces, chance, dice_total, willpower, total, degree(dice_total, total))


def roll(
    pool: int,
    dice: DiceSource,
    willpower: bool = False,
    *,
    tens_double: bool = True,
    ones_subtract: bool = True,
    chance_die: bool = True,
) -> Roll:
    """Roll ``pool`` d10 (one chance die at 0 or below; none without the chance die)."""
    count = pool if pool > 0 else 1 if chance_die else 0
    faces = tuple(dice.roll(SIDES) for _ in range(count))
    return score(
        pool, faces, willpower, tens_double=tens_double, ones_subtract=ones_subtract, chance_die=chance_die
    )


def margin_outcome(margin: int) -> str:
    if margin == 0:
        return "deadlock"
    if margin == 1:
        return "narrow"
    if margin <= 3:
        return "clear"
    return "decisive"


@dataclass(frozen=True)
class Contest:
    sides: tuple[Roll, Roll]
    margin: int
    winner: int | None
    outcome: str

    def result(self) -> ContestResult:
        details = {"margin": self.margin, "outcome": self.outcome}
        return ContestResult("nightcap", tuple(s.result() for s in self.sides), self.winner, details)

    def as_result(self) -> dict[str, Any]:
        return self.result().as_json()


def contest(left: Roll, right: Roll) -> Contest:
    """Higher total wins by the margin; both totals below zero is a both-botch with no winner."""
    margin = abs(left.total - right.total)
    if left.total < 0 and right.total < 0:
        return Contest((left, right), margin, None, "both_botch")
    if margin == 0:
        return Contest((left, right), 0, None, "deadlock")
    winner = 0 if left.total > right.total else 1
    return Contest((left, right), margin, winner, margin_outcome(margin))
