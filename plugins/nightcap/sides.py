"""A side of a roll built from its words and a sheet (pure): the pool it rolls (a number, or a trait's
rating), its modifiers and wound penalty, its label for the roll line, and what the roll log keeps of it.
Every command that rolls a character's trait or an NPC's pool builds its sides here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gateway import CommandContext, UserError
from plugins.nightcap import mechanics, wounds
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.sheet import TRAITS, match_trait, unknown_trait_hint

if TYPE_CHECKING:
    from gateway import Character

ROLL_TRAITS = f"Roll a number or one of {', '.join(TRAITS)}."


@dataclass
class Side:
    spec: PoolSpec
    pool: int
    label: str
    trait: str | None
    wound_penalty: int = 0


def build_side(
    spec: PoolSpec, character: Character | None, max_pool: int, extra: int = 0, wound: int = 0
) -> Side:
    """The pool a side rolls: a number or a trait rating, plus modifiers, checked against the maximum.

    ``wound`` is the character's wound penalty; it applies to a trait, not to a bare number."""
    trait: str | None = None
    if spec.number is not None:
        base = spec.number
    else:
        trait = match_trait(spec.base)
        if trait is None:
            raise UserError(f"Unknown trait {spec.base[:40]!r}. {unknown_trait_hint(spec.base, ROLL_TRAITS)}")
        if character is None:
            raise UserError(
                f"{trait.title()} is a trait, and you have no active character: roll a number, or make one"
                " with char new NAME."
            )
        base = int(character.sheet.get("traits", {}).get(trait, 0))
    wound = wound if trait else 0
    pool = base + sum(spec.modifiers) + extra + wound
    if pool > max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {max_pool} dice.")
    mods = "".join(f"{m:+d}" for m in spec.modifiers)
    label = f"{trait.title()} {base}{mods}" if trait else (f"{base}{mods}" if mods else "")
    return Side(spec, pool, wounds.label(label, wound), trait, wound)


def roll_side_result(side: Side, roll: mechanics.Roll) -> dict[str, Any]:
    """What the roll log keeps of one side of ``roll``: the dice, modifiers, trait and wound penalty."""
    result = roll.as_result()
    result["modifiers"] = list(side.spec.modifiers)
    if side.trait:
        result["trait"] = side.trait
    if side.wound_penalty:
        result["wound_penalty"] = side.wound_penalty
    return result


@dataclass
class Built:
    """A side ready to roll: its pool, its label for the roll line, and the JSON extras."""

    side: Side
    penalty: int

    @property
    def pool(self) -> int:
        return self.side.pool

    @property
    def label(self) -> str:
        return self.side.label

    def extras(self) -> dict[str, Any]:
        data: dict[str, Any] = {"modifiers": list(self.side.spec.modifiers)}
        if self.side.trait:
            data["trait"] = self.side.trait
        if self.penalty:
            data["wound_penalty"] = self.penalty
        return data


def side_result(built: Built, roll: mechanics.Roll) -> dict[str, Any]:
    return {**roll.as_result(), **built.extras()}


def pool_words(pool: int) -> str:
    return "a chance die" if pool <= 0 else f"{pool} {'die' if pool == 1 else 'dice'}"


def trait_rating(character: Character, trait: str) -> int:
    return int(character.sheet.get("traits", {}).get(trait, 0))


def soak_of(character: Character) -> int:
    return int(character.sheet.get("soak", 0) or 0)


def wound_label(label: str, penalty: int) -> str:
    return wounds.label(label, penalty)


def character_side(
    ctx: CommandContext, spec: PoolSpec, character: Character | None, damage: int, extra: int = 0
) -> Built:
    """A character's pool: their trait (or a number) + modifiers + the wound penalty when enabled.

    The wound penalty applies to pools read from the sheet; a bare number is already the whole pool
    (often an NPC's), so it is taken as written."""
    penalty = wounds.penalty_for_damage(ctx, damage) if character is not None else 0
    side = build_side(spec, character, ctx.settings.gateway.max_pool, extra=extra, wound=penalty)
    return Built(side, side.wound_penalty)


def rating_side(ctx: CommandContext, spec: PoolSpec, rating: int, name: str, damage: int = 0) -> Built:
    """An NPC's pool: its Physical rating (the only one it has) or a number, + modifiers + wounds."""
    if spec.number is None and match_trait(spec.base) != "physical":
        raise UserError(f"{name} only has a Physical rating: use physical, or a number of dice.")
    penalty = wounds.penalty_for_damage(ctx, damage)
    base = spec.number if spec.number is not None else rating
    pool = base + sum(spec.modifiers) + penalty
    max_pool = ctx.settings.gateway.max_pool
    if pool > max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {max_pool} dice.")
    mods = "".join(f"{m:+d}" for m in spec.modifiers)
    label = f"Physical {base}{mods}" if spec.number is None else (f"{base}{mods}" if mods else "")
    trait = "physical" if spec.number is None else None
    return Built(Side(spec, pool, wound_label(label, penalty), trait), penalty)


def checked_pool(ctx: CommandContext, rating: int, mods: list[int]) -> int:
    """``rating`` + ``mods``, refused above ``[gateway] max_pool``."""
    pool = rating + sum(mods)
    if pool > ctx.settings.gateway.max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {ctx.settings.gateway.max_pool} dice.")
    return pool


def label(trait_name: str, rating: int, mods: list[int]) -> str:
    """``Spirit 3+1``: a trait's rating and modifiers in a roll line."""
    return f"{trait_name.title()} {rating}{''.join(f'{m:+d}' for m in mods)}"
