"""Teamwork as pure state (RULINGS, "Teamwork").

The leader rolls. Each helper adds +1 die; a helper who spends their own Willpower adds a guaranteed
success instead of a die. At most 3 helpers count (a die or a success each). Helpers never roll, so
they cannot botch the leader's roll; like Willpower, a helper's guaranteed success is added after the
dice are read and does not turn a botch (read from the dice total) into something else.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from gateway import DiceSource
from plugins.nightcap import mechanics
from plugins.nightcap.mechanics import Roll

MAX_HELPERS = 3


@dataclass(frozen=True)
class Helper:
    key: str  # who helps: "c:<character id>" or "p:<person id>"
    name: str
    willpower: bool
    character_id: int | None = None


@dataclass(frozen=True)
class Team:
    leader_key: str
    leader_name: str
    pool_word: str  # the trait (or number) the leader rolls
    modifiers: tuple[int, ...] = ()
    helpers: tuple[Helper, ...] = field(default_factory=tuple)
    leader_character_id: int | None = None

    @property
    def dice_bonus(self) -> int:
        return sum(1 for h in self.helpers if not h.willpower)

    @property
    def success_bonus(self) -> int:
        return sum(1 for h in self.helpers if h.willpower)

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["modifiers"] = list(self.modifiers)
        data["helpers"] = [asdict(h) for h in self.helpers]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Team:
        return cls(
            leader_key=data["leader_key"],
            leader_name=data["leader_name"],
            pool_word=data["pool_word"],
            modifiers=tuple(data.get("modifiers", ())),
            helpers=tuple(Helper(**h) for h in data.get("helpers", ())),
            leader_character_id=data.get("leader_character_id"),
        )


class TeamError(ValueError):
    pass


def add_helper(team: Team, helper: Helper, cap: int = MAX_HELPERS) -> Team:
    """The team with one more helper; refused for the leader, a second time, or past the cap (the
    ``teamwork_cap`` house rule; the book's is 3)."""
    if helper.key == team.leader_key:
        raise TeamError(f"{helper.name} leads this action and cannot also help it.")
    if any(h.key == helper.key for h in team.helpers):
        raise TeamError(f"{helper.name} is already helping {team.leader_name}.")
    if len(team.helpers) >= cap:
        if not cap:
            raise TeamError("Teamwork is off in this channel (house rule teamwork_cap 0).")
        names = ", ".join(h.name for h in team.helpers)
        raise TeamError(f"{team.leader_name} already has {cap} helpers ({names}), the most that count.")
    return replace(team, helpers=(*team.helpers, helper))


def team_roll(
    base_pool: int, team: Team, dice: DiceSource, willpower: bool = False, **switches: bool
) -> Roll:
    """The leader's roll: helper dice join the pool before it is checked (a chance die at 0 or below),
    helper successes are added after the dice are read, like Willpower. ``switches``: the dice's
    house rules (``mechanics.roll``)."""
    pool = base_pool + team.dice_bonus
    return with_bonus(mechanics.roll(pool, dice, willpower, **switches), team.success_bonus)


def with_bonus(roll: Roll, bonus: int) -> Roll:
    """A roll with ``bonus`` guaranteed successes added to its total; the botch stays a botch."""
    if not bonus:
        return roll
    total = roll.total + bonus
    return replace(roll, total=total, degree=mechanics.degree(roll.dice_total, total))
