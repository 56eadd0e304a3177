"""Decanter's extended contests: a DC times 2-5, reached by adding the successes of that many rolls.
One per roller and channel, kept as a ``SceneState`` document ``ext:<roller>``."""

from __future__ import annotations

import secrets
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.core import scene
from gateway.features.characters import active_character
from gateway.rules.numbers import is_digits
from gateway.vault.models import Character, SceneState
from plugins.decanter import mechanics
from plugins.decanter.characters_commands import target_character
from plugins.decanter.extended import ext_reply, summary
from plugins.decanter.mechanics import SYSTEM
from plugins.decanter.messages import t
from plugins.decanter.parse import parse_dc

COMMANDS = CommandSet(SYSTEM)


def kind_of(ctx: CommandContext, character: Character | None) -> str:
    return f"ext:{scene.roller_key(ctx, character)}"


def progress_text(ctx: CommandContext, ext: dict[str, Any]) -> str:
    """Where a contest stands after a roll (``ext`` is a summary)."""
    if ext["done"]:
        return t(
            ctx,
            "extended.done",
            total=ext["total"],
            target=ext["target"],
            degree=t(ctx, f"degree.{ext['outcome']}"),
        )
    return t(
        ctx,
        "extended.progress",
        total=ext["total"],
        target=ext["target"],
        done=ext["roll"],
        of=ext["multiplier"],
    )


async def running(ctx: CommandContext, character: Character | None, who: str) -> SceneState:
    """The roller's contest that an ``ext`` roll adds to, or a refusal."""
    row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, kind_of(ctx, character))
    if row is None or row.data.get("done"):
        raise UserError(f"{who} has no extended contest running here: start one with ext DC K, e.g. ext 4 3.")
    return row


def _store(ctx: CommandContext, row: SceneState, data: dict[str, Any]) -> None:
    row.data = data
    row.updated_at = ctx.now
    ctx.session.add(row)


def advance(ctx: CommandContext, row: SceneState, successes: int) -> dict[str, Any]:
    """Add a roll's successes to the contest; its summary."""
    extended = dict(row.data)
    extended["rolls"] = [*extended["rolls"], successes]  # as rolled; the total counts none below 0
    extended["total"] = mechanics.extended_total(int(r) for r in extended["rolls"])
    if len(extended["rolls"]) >= int(extended["multiplier"]):
        extended["done"] = True
        extended["outcome"] = mechanics.degree(extended["total"], int(extended["target"]))
    _store(ctx, row, extended)
    return summary(extended)


async def amend(ctx: CommandContext, character: Character, result: dict[str, Any], amount: int) -> None:
    """Story Points added ``amount`` successes to a roll of a contest: add them to its total too."""
    row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, kind_of(ctx, character))
    ext = dict(result["extended"])
    if row is None or row.data.get("id") != ext["id"]:
        raise UserError("That extended contest is gone, so its roll can no longer change.")
    data = dict(row.data)
    rolls = list(data["rolls"])
    rolls[ext["roll"] - 1] += amount
    data["rolls"] = rolls
    data["total"] = mechanics.extended_total(int(r) for r in rolls)
    if data.get("done"):
        data["outcome"] = mechanics.degree(data["total"], int(data["target"]))
    _store(ctx, row, data)
    result["extended"] = {**summary(data), "roll": ext["roll"]}


@COMMANDS.command("ext", "start, show or stop an extended contest", "ext [DC K | stop] [for CHARACTER]")
async def ext_command(ctx: CommandContext, inv: Invocation) -> Reply:
    words: list[str] = inv.args.get("contest", [])
    target_name = " ".join(inv.args.get("character", ())) or None
    if target_name is not None:
        character: Character | None = await target_character(ctx, target_name)
    else:
        character = await active_character(ctx, SYSTEM)
    who = character.name if character else ctx.name
    kind = kind_of(ctx, character)
    row = await scene.get(ctx.session, ctx.channel.key, SYSTEM, kind)
    if not words:
        if row is None:
            return ext_reply(t(ctx, "ext.none", name=who), None)
        data = row.data
        if data.get("done"):
            text = t(
                ctx,
                "ext.show_done",
                name=who,
                total=data["total"],
                target=data["target"],
                degree=t(ctx, f"degree.{data['outcome']}"),
            )
        else:
            text = t(
                ctx,
                "ext.show",
                name=who,
                total=data["total"],
                target=data["target"],
                done=len(data["rolls"]),
                k=data["multiplier"],
            )
        return ext_reply(text, data)
    if len(words) == 1 and words[0].casefold() == "stop":
        if row is None:
            raise UserError(f"{who} has no extended contest here.")
        await ctx.session.delete(row)
        return ext_reply(t(ctx, "ext.stopped", name=who), None)
    if len(words) < 2:
        raise UserError(
            "Write ext DC K: the DC (a number or a name) and how many rolls, 2 to 5,"
            " e.g. ext 4 3 or ext hard x2."
        )
    multiplier_word = words[-1].casefold().lstrip("x×")
    if not is_digits(multiplier_word) or not 2 <= int(multiplier_word) <= 5:
        raise UserError("An extended contest multiplies the DC by 2 to 5: write ext 4 3 or ext hard x2.")
    multiplier = int(multiplier_word)
    dc = parse_dc(words[:-1] if words[0].casefold() != "dc" else words[1:-1])
    if row is not None and not row.data.get("done"):
        raise UserError(f"{who} already has an extended contest here: ext stop calls it off.")
    data = {
        "id": secrets.token_hex(4),
        "dc": dc,
        "multiplier": multiplier,
        "target": mechanics.extended_target(dc, multiplier),
        "rolls": [],
        "total": 0,
        "done": False,
        "outcome": None,
        "started_by": ctx.identity.key,
        "started_at": ctx.now.isoformat(),
    }
    await scene.put(ctx.session, ctx.channel.key, SYSTEM, kind, data, ctx.now)
    text = t(ctx, "ext.started", name=who, dc=dc, k=multiplier, target=data["target"])
    await ctx.stlog(text, kind="extended", result=data, character_id=character.id if character else None)
    return ext_reply(text, data)
