"""Extended actions as a pure state machine (RULINGS, "Extended actions").

Each roll with a total of 1 or more adds its total to the accumulated successes; a total of 0 adds
nothing; a botch (read from the dice total, so Willpower cannot save it) resets the accumulated
successes to 0 and flags a complication, and a second botch ends the attempt as failed. The attempt
succeeds as soon as the accumulated successes reach the target, and fails when the rolls run out.
The state is a plain JSON document so the vault can hold it between messages and across restarts.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from plugins.nightcap.mechanics import Roll

# The book's defaults, offered by ``extended`` alone: (target, rolls, what it is for).
DEFAULTS = ((5, 3, "difficult"), (10, 5, "real effort"))
MAX_TARGET = 100
MAX_ROLLS = 50

ACTIVE, SUCCESS, FAILED = "active", "success", "failed"


@dataclass(frozen=True)
class Extended:
    target: int
    rolls: int
    pool: str | None = None  # the trait (or a number) rolled each time, if fixed at the start
    accumulated: int = 0
    made: int = 0
    botches: int = 0
    complication: bool = False
    status: str = ACTIVE
    reason: str | None = None  # target_reached | second_botch | out_of_rolls
    history: tuple[dict[str, Any], ...] = field(default_factory=tuple)

    @property
    def left(self) -> int:
        return self.rolls - self.made

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["history"] = [dict(h) for h in self.history]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Extended:
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        known["history"] = tuple(dict(h) for h in known.get("history", ()))
        return cls(**known)


class ExtendedError(ValueError):
    pass


def start(target: int, rolls: int, pool: str | None = None) -> Extended:
    if not 1 <= target <= MAX_TARGET:
        raise ExtendedError(f"The target is 1 to {MAX_TARGET} successes.")
    if not 1 <= rolls <= MAX_ROLLS:
        raise ExtendedError(f"An extended action has 1 to {MAX_ROLLS} rolls.")
    return Extended(target=target, rolls=rolls, pool=pool)


def step(state: Extended, roll: Roll) -> Extended:
    """The state after one more roll."""
    if state.status != ACTIVE:
        raise ExtendedError("This extended action is already over.")
    made = state.made + 1
    botch = roll.degree == "botch"
    gained = 0
    accumulated, botches, complication = state.accumulated, state.botches, state.complication
    if botch:
        accumulated, botches, complication = 0, botches + 1, True
    elif roll.total >= 1:
        gained = roll.total
        accumulated += gained
    status, reason = ACTIVE, None
    if botch and botches >= 2:
        status, reason = FAILED, "second_botch"
    elif accumulated >= state.target:
        status, reason = SUCCESS, "target_reached"
    elif made >= state.rolls:
        status, reason = FAILED, "out_of_rolls"
    entry = {"n": made, "total": roll.total, "botch": botch, "gained": gained, "accumulated": accumulated}
    return replace(
        state,
        made=made,
        accumulated=accumulated,
        botches=botches,
        complication=complication,
        status=status,
        reason=reason,
        history=(*state.history, entry),
    )
