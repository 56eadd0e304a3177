"""A power used in a contest: which one, at which tier, what it costs, and the pool it gives
(the keyed trait + 1 die per tier above Basic). Shared by ``power use ... vs ...`` and by challenges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway import CommandContext, UserError
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import combat, play
from plugins.nightcap.conflict_support import Built, character_side
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.powers import TIERS, Tier, UseCost, cost_refusal, match_tier, use_cost
from plugins.nightcap.sheet import ESSENCE, find_power
from plugins.nightcap.store import pool_values, sheet_of


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


def split_power_words(words: list[str]) -> tuple[list[str], Tier | None, list[int], bool, bool]:
    """``Mind Lock adept +1 wp`` -> (name words, tier, modifiers, wp, secret)."""
    rest, mods, wp, secret = play.split_roll_words(words)
    chosen = None
    if len(rest) > 1:
        try:
            chosen = match_tier(rest[-1])
        except UserError:
            chosen = None
        if chosen is not None:
            rest = rest[:-1]
    return rest, chosen, mods, wp, secret


def choose_power(character: Character, name_words: list[str], chosen: Tier | None) -> PowerChoice:
    sheet = sheet_of(character)
    power = find_power(sheet, " ".join(name_words))
    if power is None:
        known = ", ".join(p["name"] for p in sheet["powers"]) or "none"
        raise UserError(f"{character.name} has no power called {' '.join(name_words)[:60]}. Powers: {known}.")
    return PowerChoice(character, power, use_cost(TIERS[power["tier"]], chosen, power["name"]))


async def essence_of(ctx: CommandContext, character: Character) -> int:
    return (await pool_values(ctx, character))[ESSENCE][0]


async def check_can_pay(ctx: CommandContext, choice: PowerChoice) -> int:
    """Refuse (nothing spent) when the pool cannot pay; return the Essence before paying."""
    essence = await essence_of(ctx, choice.character)
    refusal = cost_refusal(choice.power["name"], choice.cost, choice.character.name, essence)
    if refusal:
        raise UserError(refusal)
    return essence


async def pay(ctx: CommandContext, choice: PowerChoice) -> None:
    assert choice.character.id is not None
    if choice.cost.essence and not await repo.spend_pool(
        ctx.session, choice.character.id, ESSENCE, choice.cost.essence
    ):
        raise UserError(f"{choice.character.name}'s Essence changed meanwhile; nothing was spent. Try again.")


def power_side(ctx: CommandContext, choice: PowerChoice, mods: list[int], wp: bool, damage: int) -> Built:
    """The keyed trait + modifiers + tier dice (+ the wound penalty), labelled with the power."""
    spec = PoolSpec(base=choice.trait, modifiers=tuple(mods), willpower=wp)
    built = character_side(ctx, spec, choice.character, damage, extra=choice.dice)
    built.side.label = power_label(choice.power["name"], choice.tier.title, built.side.label, choice.dice)
    return built


def power_label(name: str, tier: str, label: str, dice: int) -> str:
    """``Mind Lock (Adept): Mental 3 +1 tier``."""
    return f"{name} ({tier}): {label}{f' +{dice} tier' if dice else ''}"
