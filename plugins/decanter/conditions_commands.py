"""Decanter's Conditions: list, take and resolve them; the end of a scene or a night expires the
ones of that length gained in the channel."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.features.characters import find_character, lock_character
from gateway.rules.dots_sheet import trait_title
from gateway.vault.models import Character
from plugins.decanter import mechanics, sheet, store
from plugins.decanter.characters_commands import CHARACTERS, duration_text, target_character
from plugins.decanter.conditions import COND_ADD_USAGE, SHORTFALL, condition_effect, parse_condition
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.render import effect_what
from plugins.decanter.sheet import SCHEMA, Effect

COMMANDS = CommandSet(SYSTEM)

SCENE_MARKER = "* * *"  # said alone, ends the scene (a bare command)


@COMMANDS.command("cond", "list Conditions", "cond [NAME]")
async def cond_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.args.get("name", ())) or None
    if name is not None and not ctx.storyteller:
        own = await find_character(ctx.session, SYSTEM, name)
        if own is None or own.owner_id != ctx.person.id:
            raise PermissionDenied("cond NAME shows another character's Conditions to Storytellers only.")
    character = await target_character(ctx, name)
    data = SCHEMA.load(character.sheet)
    items = [condition_item(ctx, c) for c in data.conditions]
    text = (
        t(ctx, "cond.list", name=character.name, items="; ".join(items))
        if items
        else t(ctx, "cond.none", name=character.name)
    )
    return CHARACTERS.reply(
        text, "conditions", character, conditions=[c.model_dump() for c in data.conditions]
    )


def condition_item(ctx: CommandContext, c: sheet.Condition) -> str:
    """``Shaken (until the scene ends; penalty: ...; effect: ...; resist: ...; resolution: ...)``."""
    parts = [duration_text(ctx, c.duration)]
    if c.penalty:
        parts.append(t(ctx, "cond.part.penalty", text=c.penalty))
    if c.effect is not None:
        parts.append(t(ctx, "cond.part.effect", text=effect_text(ctx, c.effect)))
    if c.resist:
        parts.append(t(ctx, "cond.part.resist", n=c.resist))
    if c.resolution:
        parts.append(t(ctx, "cond.part.resolution", text=c.resolution))
    return t(ctx, "cond.item", cname=c.name, duration="; ".join(parts))


def effect_text(ctx: CommandContext, effect: Effect) -> str:
    """``Disadvantage and -2 dice on Composure, Social rolls``."""
    what = effect_what(ctx, effect.quality, effect.dice)
    if not effect.traits:
        return t(ctx, "effect.every", what=what)
    return t(ctx, "effect.on", what=what, traits=", ".join(trait_title(x) for x in effect.traits))


async def _shortfall(ctx: CommandContext, character: Character) -> int:
    """The book's "simple format": a cost "equal to (DC - rolled successes)" of the latest roll here."""
    assert character.id is not None
    row = await store.latest_roll(ctx.session, character.id, ctx.channel.key, SYSTEM)
    shortfall = int((row.result or {}).get("shortfall") or 0) if row is not None else 0
    if row is None or shortfall < 1:
        raise UserError(
            f"{character.name}'s latest roll here fell short of nothing (no botch or setback against a DC):"
            " write resist N."
        )
    return shortfall


async def _locked(ctx: CommandContext, target: str | None) -> tuple[Character, sheet.DecanterSheet]:
    """The character a Condition command is for, locked for a change of its sheet, and the sheet."""
    character = await target_character(ctx, target)
    assert character.id is not None
    character = await lock_character(ctx.session, character.id)
    return character, SCHEMA.load(character.sheet)


async def _save(
    ctx: CommandContext, character: Character, data: sheet.DecanterSheet, key: str, audit: dict[str, Any]
) -> None:
    """Store the changed sheet; a Storyteller's change to another's sheet is audited as ``key``."""
    character.sheet = SCHEMA.dump(data)
    character.updated_at = ctx.now
    ctx.session.add(character)
    if ctx.storyteller and character.owner_id != ctx.person.id:
        await ctx.audit(key, character_id=character.id, field_name="conditions", **audit)


@COMMANDS.command("cond add", "take a Condition", COND_ADD_USAGE)
async def cond_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words = parse_condition(inv.words)
    if words.target_in is not None and await find_character(ctx.session, SYSTEM, words.target or "") is None:
        words = words.without_target()
    effect = condition_effect(words)
    character, data = await _locked(ctx, words.target)
    resist = words.resist
    if resist == SHORTFALL:
        resist = await _shortfall(ctx, character)
    if any(c.name.casefold() == words.name.casefold() for c in data.conditions):
        raise UserError(
            f"{character.name} already has the Condition {words.name}; resolve it first to change it."
        )
    try:
        condition = sheet.Condition(
            name=words.name,
            penalty=words.penalty,
            resolution=words.resolution,
            duration=words.duration,
            channel=ctx.channel.key,
            gained_at=ctx.now.isoformat(),
            effect=effect,
            resist=resist,
        )
    except ValueError:
        raise UserError(
            "A Condition's name is 1 to 60 characters; penalty and resolution up to 300."
        ) from None
    data = data.model_copy(update={"conditions": [*data.conditions, condition]})
    await _save(ctx, character, data, "decanter.condition_add", {"new": condition.model_dump()})
    text = t(
        ctx, "cond.added", name=character.name, cname=words.name, duration=duration_text(ctx, words.duration)
    )
    if effect is not None:
        text += " " + t(ctx, "cond.effect", effect=effect_text(ctx, effect))
    elif words.penalty and words.effect is None:
        text += " " + t(ctx, "cond.text_only")
    await ctx.stlog(text, kind="condition", character_id=character.id)
    return CHARACTERS.reply(text, "condition", character, added=condition.model_dump())


@COMMANDS.command("cond resolve", "resolve a Condition", "cond resolve NAME [for CHARACTER]")
async def cond_resolve_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name: str = inv.args.get("condition", "")
    if not name:
        raise UserError("Write cond resolve NAME [for CHARACTER].")
    target = " ".join(inv.args.get("character", ())) or None
    character, data = await _locked(ctx, target)
    kept = [c for c in data.conditions if c.name.casefold() != name.casefold()]
    if len(kept) == len(data.conditions):
        raise UserError(f"{character.name} has no Condition called {name[:60]!r}.")
    gone = next(c for c in data.conditions if c.name.casefold() == name.casefold())
    data = data.model_copy(update={"conditions": kept})
    await _save(ctx, character, data, "decanter.condition_resolve", {"old": gone.model_dump()})
    text = t(ctx, "cond.resolved", name=character.name, cname=gone.name)
    await ctx.stlog(text, kind="condition", character_id=character.id)
    return CHARACTERS.reply(text, "condition", character, resolved=gone.model_dump())


# ---------------------------------------------------------------- the end of a scene or a night


async def end_period(ctx: CommandContext, durations: tuple[str, ...]) -> list[dict[str, Any]]:
    """Expire Conditions of ``durations`` gained in this channel, on every Decanter character."""
    expired_all: list[dict[str, Any]] = []
    for character in await store.characters_of(ctx.session, SYSTEM):
        conditions = (character.sheet or {}).get("conditions") or []
        if not conditions:
            continue
        kept, expired = mechanics.expire_conditions(conditions, ctx.channel.key, durations)
        if expired:
            character.sheet = {**character.sheet, "conditions": kept}
            character.updated_at = ctx.now
            ctx.session.add(character)
            expired_all += [{"character": character.name, **c} for c in expired]
    return expired_all


@COMMANDS.command(SCENE_MARKER, "end the scene in this channel", SCENE_MARKER, bare=True, params=())
@COMMANDS.command("***", "end the scene in this channel (same as * * *)", "***", bare=True, params=())
@COMMANDS.command("scene end", "end the scene in this channel (same as * * *)", "scene end", params=())
async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    return await _end(ctx, ("scene",), "scene")


@COMMANDS.command(
    "night end", "end the night (and the scene) in this channel", "night end", role="storyteller", params=()
)
async def night_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    return await _end(ctx, ("scene", "night"), "night")


async def _end(ctx: CommandContext, durations: tuple[str, ...], what: str) -> Reply:
    expired = await end_period(ctx, durations)
    items = ", ".join(t(ctx, "expired.item", cname=c["name"], name=c["character"]) for c in expired)
    text = t(ctx, f"{what}.end_expired", items=items) if expired else t(ctx, f"{what}.end")
    result = {"kind": f"{what}_end", "system": SYSTEM, "channel": ctx.channel.key, "expired": expired}
    await ctx.stlog(text, kind=f"{what}_end", result=result)
    return Reply(text=text, result=result)
