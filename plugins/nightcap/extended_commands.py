"""Extended actions: ``extended start``, ``roll``, ``status``, ``abandon`` (state in a ``KeyValue`` row)."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply, UserError
from gateway.rules.numbers import is_digits
from plugins.nightcap import extended, mechanics, render, rulings
from plugins.nightcap import params as P
from plugins.nightcap.config import SYSTEM
from plugins.nightcap.conflict_commands import actor, ensure_can_act, kv_claim, kv_get, kv_put
from plugins.nightcap.house import dice
from plugins.nightcap.pools import parse_side
from plugins.nightcap.roll_commands import spend_willpower
from plugins.nightcap.roll_texts import say
from plugins.nightcap.sides import character_side, side_result
from plugins.nightcap.store import overrule
from plugins.nightcap.words import nothing_after

COMMANDS = CommandSet(SYSTEM)
EXTENDED = "nightcap.extended"
EXTENDED_USAGE = (
    "extended start TARGET ROLLS [TRAIT] | extended roll [TRAIT] [+N|-N] [wp] | extended status"
    " | extended abandon"
)


def _extended_status(name: str, state: extended.Extended) -> str:
    comp = " Complication pending." if state.complication else ""
    return say(
        "extended.status",
        name=name,
        accumulated=state.accumulated,
        target=state.target,
        made=state.made,
        rolls=state.rolls,
        left=state.left,
        comp=comp,
    )


def _progress(state: extended.Extended) -> str:
    """``0/5, 1 roll left.``"""
    return f" {state.accumulated}/{state.target}, {say('rolls_left', n=state.left)}."


def _extended_result(state: extended.Extended, **extra: Any) -> dict[str, Any]:
    return {"kind": "extended", "system": SYSTEM, "state": state.as_dict(), **extra}


@COMMANDS.command("extended", "show your extended action, or the defaults", EXTENDED_USAGE, params=())
async def extended_command(ctx: CommandContext, inv: Invocation) -> Reply:
    _, key, name = await actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    offers = " or ".join(f"extended start {t} {r} ({why})" for t, r, why in extended.DEFAULTS)
    if inv.words:
        raise UserError(f"Write {EXTENDED_USAGE}.")
    if row is None:
        text = f"No extended action under way for {name}. Start one with {offers}, adding a trait to roll."
        return Reply(
            text=text, result={"kind": "extended", "system": SYSTEM, "state": None, "offers": _offers()}
        )
    state = extended.Extended.from_dict(row.value["state"])
    return Reply(text=_extended_status(name, state), result=_extended_result(state, offers=_offers()))


def _offers() -> list[dict[str, Any]]:
    return [{"target": t, "rolls": r, "for": why} for t, r, why in extended.DEFAULTS]


@COMMANDS.command(
    "extended start",
    "start an extended action",
    "extended start TARGET ROLLS [TRAIT]",
    params=P.EXTENDED_START,
)
async def extended_start(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await actor(ctx)
    target, rolls = int(inv.args["target"]), int(inv.args["rolls"])
    pool_word = None
    if "trait" in inv.args:
        spec = parse_side([inv.args["trait"]])
        if spec.modifiers or spec.willpower:
            raise UserError("Modifiers and wp go on each roll: extended roll [+N|-N] [wp].")
        character_side(ctx, spec, character, 0)  # checks the trait (and that there is a character)
        pool_word = spec.base
    if character is not None:
        await ensure_can_act(ctx.session, character, "extended start")
    if await kv_get(ctx.session, EXTENDED, key) is not None:
        raise UserError(f"{name} already has an extended action under way: extended abandon ends it first.")
    try:
        state = extended.start(target, rolls, pool_word)
    except extended.ExtendedError as exc:
        raise UserError(str(exc)) from exc
    await kv_put(ctx.session, EXTENDED, key, {"name": name, "state": state.as_dict()}, ctx.now)
    what = f" rolling {pool_word.title()}" if pool_word and not is_digits(pool_word) else ""
    text = say("extended.started", name=name, what=what, target=target, rolls=rolls)
    result = _extended_result(state, status="started")
    await ctx.stlog(text, kind="extended", result=result, character_id=character.id if character else None)
    return Reply(text=text, result=result)


@COMMANDS.command(
    "extended roll", "roll the next step", "extended roll [TRAIT] [+N|-N] [wp]", params=P.EXTENDED_ROLL
)
async def extended_roll(ctx: CommandContext, inv: Invocation) -> Reply:
    character, key, name = await actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None:
        raise UserError(f"{name} has no extended action under way: extended start TARGET ROLLS [TRAIT].")
    state = extended.Extended.from_dict(row.value["state"])
    words = str(inv.args.get("pool", "")).split()
    if state.pool is not None:
        if words and not (words[0][:1] in "+-" or words[0].casefold() in ("wp", "willpower")):
            raise UserError(
                f"This extended action rolls {state.pool.title()}: write extended roll [+N|-N] [wp]."
            )
        words = [state.pool, *words]
    elif not words:
        raise UserError("Roll what? Write extended roll TRAIT [+N|-N] [wp] (or fix it at extended start).")
    spec = parse_side(words)
    damage = await ensure_can_act(ctx.session, character, "extended roll") if character else 0
    spec, ruling = await overrule(ctx, character, spec)
    built = character_side(ctx, spec, character, damage)
    if spec.willpower:
        await spend_willpower(ctx, character)
    roll = mechanics.roll(built.pool, ctx.dice, spec.willpower, **dice(ctx))
    state = extended.step(state, roll)
    result = side_result(built, roll)
    result.update(
        kind="extended", who=name, extended=state.as_dict(), status=state.status, reason=state.reason
    )
    if ruling is not None:
        result["ruling"] = ruling
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=name)
    line = render.roll_line(name, roll, roll_id, built.label)
    line = f"{line.removesuffix(f' #{roll_id}')}{rulings.note(ruling)} #{roll_id}"
    if state.status == extended.SUCCESS:
        after = " " + say(
            "extended.done", accumulated=state.accumulated, target=state.target, made=state.made
        )
    elif state.reason == "second_botch":
        after = " A second botch: the attempt fails."
    elif state.status == extended.FAILED:
        after = f" Out of rolls at {state.accumulated}/{state.target}: the attempt fails."
    elif roll.degree == "botch":
        after = " Botch: progress lost, a complication for the Storyteller." + _progress(state)
    else:
        after = _progress(state)
    text = line + " —" + after
    if state.status == extended.ACTIVE:
        await kv_put(ctx.session, EXTENDED, key, {"name": name, "state": state.as_dict()}, ctx.now)
    else:
        await kv_claim(ctx.session, EXTENDED, key)
    await ctx.stlog(text, kind="extended", result=result, character_id=char_id)
    return Reply(text=text, result=result)


@COMMANDS.command("extended status", "show your extended action", "extended status", params=())
async def extended_status(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "extended status")
    _, key, name = await actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None:
        raise UserError(f"{name} has no extended action under way.")
    state = extended.Extended.from_dict(row.value["state"])
    return Reply(text=_extended_status(name, state), result=_extended_result(state))


@COMMANDS.command("extended abandon", "give your extended action up", "extended abandon", params=())
async def extended_abandon(ctx: CommandContext, inv: Invocation) -> Reply:
    nothing_after(inv, "extended abandon")
    character, key, name = await actor(ctx)
    row = await kv_get(ctx.session, EXTENDED, key)
    if row is None or not await kv_claim(ctx.session, EXTENDED, key):
        raise UserError(f"{name} has no extended action to abandon.")
    state = extended.Extended.from_dict(row.value["state"])
    text = f"{name} abandons the extended action at {state.accumulated}/{state.target}."
    result = _extended_result(state, status="abandoned")
    await ctx.stlog(text, kind="extended", result=result, character_id=character.id if character else None)
    return Reply(text=text, result=result)
