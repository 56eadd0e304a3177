"""A power used in a contest: which one, at which tier, what it costs, and the pool it gives
(the keyed trait + 1 die per tier above Basic). Shared by ``power use ... vs ...`` and by challenges.
Pure: ``store.check_can_pay`` and ``store.pay`` read and spend the Essence."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gateway import CommandContext, UserError
from plugins.nightcap import combat
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.powers import TIERS, Tier, UseCost, use_cost
from plugins.nightcap.sheet import find_power, normalise
from plugins.nightcap.sides import Built, character_side

if TYPE_CHECKING:
    from gateway import Character


@dataclass
class PowerChoice:
    """A power a character uses in a contest: what it is, at which tier, what it costs."""

    character: Character
    power: dict[str, Any]
    cost: UseCost

    @property
    def tier(self) -> Tier:
        return self.cost.tier

    @property
    def dice(self) -> int:
        return combat.tier_dice(self.tier.name)

    @property
    def trait(self) -> str:
        return str(self.power.get("trait") or "spirit")

    def describe(self, essence_before: int | None = None) -> dict[str, Any]:
        data: dict[str, Any] = {
            "name": self.power["name"],
            "learned": self.power["tier"],
            "tier": self.tier.name,
            "essence": self.cost.essence,
            "tier_dice": self.dice,
            "trait": self.trait,
        }
        if essence_before is not None:
            data["essence_left"] = essence_before - self.cost.essence
        return data


def choose_power(character: Character, name_words: list[str], chosen: Tier | None) -> PowerChoice:
    sheet = normalise(character.sheet)
    power = find_power(sheet, " ".join(name_words))
    if power is None:
        known = ", ".join(p["name"] for p in sheet["powers"]) or "none"
        raise UserError(f"{character.name} has no power called {' '.join(name_words)[:60]}. Powers: {known}.")
    return PowerChoice(character, power, use_cost(TIERS[power["tier"]], chosen, power["name"]))


def power_side(ctx: CommandContext, choice: PowerChoice, mods: list[int], wp: bool, damage: int) -> Built:
    """The keyed trait + modifiers + tier dice (+ the wound penalty), labelled with the power."""
    spec = PoolSpec(base=choice.trait, modifiers=tuple(mods), willpower=wp)
    built = character_side(ctx, spec, choice.character, damage, extra=choice.dice)
    built.side.label = power_label(choice.power["name"], choice.tier.title, built.side.label, choice.dice)
    return built


def power_label(name: str, tier: str, label: str, dice: int) -> str:
    """``Mind Lock (Adept): Mental 3 +1 tier``."""
    return f"{name} ({tier}): {label}{f' +{dice} tier' if dice else ''}"
