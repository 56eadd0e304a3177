"""The ``roll`` command: pools from numbers or traits, Willpower, contests against a pool, secret rolls."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gateway.characters import active_character
from gateway.commands import CommandContext
from gateway.errors import UserError
from gateway.types import Invocation, Reply
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import mechanics, render
from plugins.nightcap.pools import PoolSpec, parse_roll
from plugins.nightcap.sheet import TRAITS, match_trait

SYSTEM = "nightcap"


@dataclass
class Side:
    spec: PoolSpec
    pool: int
    label: str
    trait: str | None


def build_side(spec: PoolSpec, character: Character | None, max_pool: int, extra: int = 0) -> Side:
    """The pool a side rolls: a number or a trait rating, plus modifiers, checked against the maximum."""
    trait: str | None = None
    if spec.number is not None:
        base = spec.number
    else:
        trait = match_trait(spec.base)
        if trait is None:
            raise UserError(f"Unknown trait {spec.base[:40]!r}. Roll a number or one of {', '.join(TRAITS)}.")
        if character is None:
            raise UserError(
                f"{trait.title()} is a trait, and you have no active character: roll a number, or make one"
                " with char new NAME."
            )
        base = int(character.sheet.get("traits", {}).get(trait, 0))
    pool = base + sum(spec.modifiers) + extra
    if pool > max_pool:
        raise UserError(f"A pool of {pool} is above the maximum of {max_pool} dice.")
    mods = "".join(f"{m:+d}" for m in spec.modifiers)
    label = f"{trait.title()} {base}{mods}" if trait else (f"{base}{mods}" if mods else "")
    return Side(spec, pool, label, trait)


async def spend_willpower(ctx: CommandContext, character: Character | None) -> None:
    if character is None:
        raise UserError("Willpower needs a character: make one with char new NAME, or roll without wp.")
    assert character.id is not None
    if not await repo.spend_pool(ctx.session, character.id, "willpower", 1):
        raise UserError(f"{character.name} has no Willpower left to spend.")


def _side_result(side: Side, roll: mechanics.Roll) -> dict[str, Any]:
    result = roll.as_result()
    result["modifiers"] = list(side.spec.modifiers)
    if side.trait:
        result["trait"] = side.trait
    return result


async def roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    request = parse_roll(inv.words)
    character = await active_character(ctx, SYSTEM)
    max_pool = ctx.settings.gateway.max_pool
    sides = [
        build_side(spec, character if i == 0 else None, max_pool) for i, spec in enumerate(request.sides)
    ]
    if len(sides) == 2 and sides[1].trait:
        raise UserError("The other side of a contest is a number of dice (an NPC): write vs 3 or vs 3+1.")
    if sides[0].spec.willpower:
        await spend_willpower(ctx, character)
    if len(sides) == 2 and sides[1].spec.willpower:
        raise UserError("An NPC side cannot spend Willpower; its pool is just dice.")
    who = character.name if character else ctx.name
    # Willpower is fixed before any die is shown: the spends above happen before the first roll.
    rolls = [mechanics.roll(side.pool, ctx.dice, side.spec.willpower) for side in sides]
    char_id = character.id if character else None
    if len(rolls) == 1:
        result = _side_result(sides[0], rolls[0])
        result["who"] = who
        roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
        text = render.roll_line(who, rolls[0], roll_id, sides[0].label)
    else:
        outcome = mechanics.contest(rolls[0], rolls[1])
        result = outcome.as_result()
        result["sides"] = [_side_result(s, r) for s, r in zip(sides, rolls, strict=True)]
        result["who"] = who
        roll_id = await ctx.log_roll(result, character_id=char_id, name=who)
        text = render.contest_line(who, outcome, roll_id, (sides[0].label, sides[1].label), "NPC")
    result["secret"] = request.secret
    await ctx.stlog(
        ("(secret) " if request.secret else "") + text, kind="roll", result=result, character_id=char_id
    )
    return Reply(text=text, private=request.secret, result=result)
