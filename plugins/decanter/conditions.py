"""Decanter's Conditions: list, take and resolve them; the end of a scene or a night expires the
ones of that length gained in the channel."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, UserError
from gateway.characters import find_character, lock_character
from gateway.vault.models import Character
from plugins.decanter import mechanics, sheet, state
from plugins.decanter.characters import CHARACTERS, duration_text, split_for, target_character
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.sheet import SCHEMA

COMMANDS = CommandSet(SYSTEM)

DURATION_WORDS = {
    "scene": "scene",
    "night": "night",
    "resolved": "resolved",
    "until-resolved": "resolved",
    "until_resolved": "resolved",
    "untilresolved": "resolved",
}
COND_ADD_USAGE = (
    "cond add NAME [scene|night|resolved] [penalty TEXT] [resolution TEXT] [for CHARACTER],"
    ' e.g. cond add Shaken scene penalty "Disadvantage on Composure rolls"'
)
SCENE_MARKER = "* * *"  # said alone, ends the scene (a bare command)


@COMMANDS.command("cond", "list Conditions", "cond [NAME]")
async def cond_command(ctx: CommandContext, inv: Invocation) -> Reply:
    name = " ".join(inv.words) or None
    if name is not None and not ctx.storyteller:
        own = await find_character(ctx.session, SYSTEM, name)
        if own is None or own.owner_id != ctx.person.id:
            raise PermissionDenied("cond NAME shows another character's Conditions to Storytellers only.")
    character = await target_character(ctx, name)
    data = SCHEMA.load(character.sheet)
    items = [
        t(
            ctx,
            "cond.item_full",
            cname=c.name,
            duration=duration_text(ctx, c.duration),
            penalty=c.penalty or "-",
            resolution=c.resolution or "-",
        )
        if (c.penalty or c.resolution)
        else t(ctx, "cond.item", cname=c.name, duration=duration_text(ctx, c.duration))
        for c in data.conditions
    ]
    text = (
        t(ctx, "cond.list", name=character.name, items="; ".join(items))
        if items
        else t(ctx, "cond.none", name=character.name)
    )
    return CHARACTERS.reply(
        text, "conditions", character, conditions=[c.model_dump() for c in data.conditions]
    )


def parse_condition(words: tuple[str, ...]) -> tuple[str, str, str, str, str | None]:
    """(name, duration, penalty, resolution, for-character) from ``cond add`` words."""
    if not words:
        raise UserError(f"Which Condition? Write {COND_ADD_USAGE}.")
    name = words[0].strip()
    duration: str | None = None
    texts: dict[str, list[str]] = {"penalty": [], "resolution": []}
    target: str | None = None
    segment: str | None = None
    rest = list(words[1:])
    i = 0
    while i < len(rest):
        word = rest[i]
        folded = word.casefold()
        if folded in ("penalty", "resolution"):
            segment = folded
        elif folded == "for":
            if i + 1 >= len(rest):
                raise UserError("for needs a character's name after it.")
            target = rest[i + 1]
            i += 1
            segment = None
        elif (
            segment is None
            and folded == "until"
            and i + 1 < len(rest)
            and rest[i + 1].casefold() == "resolved"
        ):
            duration = "resolved"
            i += 1
        elif segment is None and folded in DURATION_WORDS:
            if duration is not None:
                raise UserError("Give a Condition one duration: scene, night or resolved.")
            duration = DURATION_WORDS[folded]
        elif segment is not None:
            texts[segment].append(word)
        else:
            raise UserError(
                f"I cannot read {word[:40]!r} there. Write {COND_ADD_USAGE} (quote a name with spaces)."
            )
        i += 1
    return name, duration or "resolved", " ".join(texts["penalty"]), " ".join(texts["resolution"]), target


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
    name, duration, penalty, resolution, target = parse_condition(inv.words)
    character, data = await _locked(ctx, target)
    if any(c.name.casefold() == name.casefold() for c in data.conditions):
        raise UserError(f"{character.name} already has the Condition {name}; resolve it first to change it.")
    try:
        condition = sheet.Condition(
            name=name,
            penalty=penalty,
            resolution=resolution,
            duration=duration,
            channel=ctx.channel.key,
            gained_at=ctx.now.isoformat(),
        )
    except ValueError:
        raise UserError(
            "A Condition's name is 1 to 60 characters; penalty and resolution up to 300."
        ) from None
    data = data.model_copy(update={"conditions": [*data.conditions, condition]})
    await _save(ctx, character, data, "decanter.condition_add", {"new": condition.model_dump()})
    text = t(ctx, "cond.added", name=character.name, cname=name, duration=duration_text(ctx, duration))
    await ctx.stlog(text, kind="condition", character_id=character.id)
    return CHARACTERS.reply(text, "condition", character, added=condition.model_dump())


@COMMANDS.command("cond resolve", "resolve a Condition", "cond resolve NAME [for CHARACTER]")
async def cond_resolve_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words, target = split_for(inv.words)
    if not words:
        raise UserError("Write cond resolve NAME [for CHARACTER].")
    name = " ".join(words)
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
    for character in await state.characters_of(ctx.session, SYSTEM):
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


@COMMANDS.command(SCENE_MARKER, "end the scene in this channel", SCENE_MARKER, bare=True)
@COMMANDS.command("scene end", "end the scene in this channel (same as * * *)", "scene end")
async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    return await _end(ctx, ("scene",), "scene")


@COMMANDS.command(
    "night end", "end the night (and the scene) in this channel", "night end", role="storyteller"
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
