"""The Storyteller's rolls (the ST HUD's Roll and Roll Stat): ``st roll``, an NPC or situational
pool, alone or against another (``st roll 6 vs 3``); ``st rollstat``, a character's own trait, with
the character's Willpower when the Storyteller declares it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from gateway import CommandContext, Invocation, Reply, UserError
from gateway.vault.models import Character
from plugins.nightcap import mechanics, render, wounds
from plugins.nightcap.house import dice
from plugins.nightcap.npc_rolls import npc_side_result, read_npc_roll
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.roll_texts import say
from plugins.nightcap.sheet import trait, trait_or_error
from plugins.nightcap.sides import checked_pool, label
from plugins.nightcap.store import sheet_of, wound_penalty
from plugins.nightcap.words import split_roll_words

Named = Callable[[CommandContext, list[str], str, int], Awaitable[tuple[Character, list[str]]]]


async def npc_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    sides, secret = read_npc_roll(inv.args["pool"], inv.args.get("against")), bool(inv.args["secret"])
    pools = [checked_pool(ctx, s.base, list(s.modifiers)) for s in sides]
    rolls = [mechanics.roll(pool, ctx.dice, **dice(ctx)) for pool in pools]
    first = sides[0]
    if len(sides) == 1:
        result: dict[str, Any] = npc_side_result(first, rolls[0])
        result.update(npc=True, storyteller=ctx.name, secret=secret)
        roll_id = await ctx.log_roll(result, name=f"{first.who} (Storyteller {ctx.name})")
        body = render.roll_body(rolls[0], first.label)
        text = say("st_roll.line", st=ctx.name, who=first.who, body=body, id=roll_id)
    else:
        second = sides[1]
        if first.who.casefold() == second.who.casefold():
            raise UserError("Give the two sides different names: st roll 6 ghoul vs 3 guard.")
        outcome = mechanics.contest(rolls[0], rolls[1])
        result = outcome.as_result()
        result["sides"] = [npc_side_result(s, r) for s, r in zip(sides, rolls, strict=True)]
        result.update(who=first.who, against=second.who, npc=True, storyteller=ctx.name, secret=secret)
        roll_id = await ctx.log_roll(result, name=f"{first.who} (Storyteller {ctx.name})")
        line = render.contest_line(first.who, outcome, roll_id, (first.label, second.label), second.who)
        text = say("st_roll.contest", st=ctx.name, line=line)
    await ctx.stlog(("(secret) " if secret else "") + text, kind="st_roll", result=result)
    return Reply(text=text, private=secret, result=result)


async def stat_roll(ctx: CommandContext, inv: Invocation, named: Named) -> Reply:
    """A character's trait rolled by the Storyteller; ``wp`` spends the character's Willpower, before
    the dice, as their own roll would (refused at 0, and on an unapproved sheet)."""
    usage = say("st_rollstat.usage")
    rest_words, mods, wp, secret = split_roll_words(inv.words)
    character, rest = await named(ctx, rest_words, usage, 1)
    if len(rest) != 1:
        raise UserError(f"Write {usage}.")
    keyed = trait_or_error(rest[0])
    rating = trait(sheet_of(character), keyed)
    wound = await wound_penalty(ctx, character)
    pool = checked_pool(ctx, rating, [*mods, wound])
    if wp:
        await spend_willpower(ctx, character)  # declared before the dice, as in roll
    roll = mechanics.roll(pool, ctx.dice, wp, **dice(ctx))
    result: dict[str, Any] = roll.as_result()
    result.update(who=character.name, trait=keyed, modifiers=mods, storyteller=ctx.name, secret=secret)
    if wound:
        result["wound_penalty"] = wound
    roll_id = await ctx.log_roll(result, character_id=character.id, name=character.name)
    body = render.roll_body(roll, wounds.label(label(keyed, rating, mods), wound))
    text = f"Storyteller {ctx.name} rolls {character.name}'s {body} #{roll_id}"
    await ctx.stlog(
        ("(secret) " if secret else "") + text, kind="st_roll", result=result, character_id=character.id
    )
    return Reply(text=text, private=secret, result=result)
