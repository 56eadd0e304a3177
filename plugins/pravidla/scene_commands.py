"""Tug of war and initiative: per-channel state in ``SceneState``, so both survive a restart."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, CommandSet, Invocation, PermissionDenied, Reply, faces
from gateway.core import scene as state
from gateway.features.characters import active_character, find_character
from gateway.rules.initiative_tracker import InitiativeTracker
from gateway.rules.numbers import is_digits
from gateway.vault.models import Character
from plugins.pravidla import mechanics
from plugins.pravidla.commands import (
    SYSTEM,
    WORDS,
    TermPool,
    build_pool,
    check_target,
    fail,
    not_self,
    right_side,
    split_words,
    t,
    who_of,
)
from plugins.pravidla.config import PravidlaSettings
from plugins.pravidla.house import house
from plugins.pravidla.messages import CATALOGUE
from plugins.pravidla.sheet import MAX_RATING, PravidlaSheet

COMMANDS = CommandSet(SYSTEM)

TUG = "tug"
INIT = "initiative"


# --- tug of war ----------------------------------------------------------------------------------


def tug_status(ctx: CommandContext, data: dict[str, Any]) -> str:
    balance = int(data["balance"])
    common = {"left": data["left"], "right": data["right"], "lead": data["lead"], "round": data["round"]}
    if int(data["round"]) == 0:
        return t(ctx, "tug.status.new", **common)
    if balance == 0:
        return t(ctx, "tug.status.even", **common)
    leader = data["left"] if balance > 0 else data["right"]
    return t(ctx, "tug.status.leads", leader=leader, margin=abs(balance), **common)


@COMMANDS.command("tug", "show the tug of war in this channel", "tug", params=())
async def tug_command(ctx: CommandContext, inv: Invocation) -> Reply:
    if inv.words:
        raise fail(ctx, "err.tug_usage")
    data = await state.load(ctx, TUG)
    if data is None:
        return Reply(text=t(ctx, "tug.none"), result={"kind": "tug", "system": SYSTEM, "tug": None})
    return Reply(text=tug_status(ctx, data), result={"kind": "tug", "system": SYSTEM, "tug": data})


async def _tug_pools(
    ctx: CommandContext, words: tuple[str, ...], against: str, character: Character | None
) -> tuple[TermPool, TermPool] | None:
    """``4 vs 4``, ``stamina vs 4``, ``stamina vs stamina`` or ``stamina`` (the last two: the
    opponent's same trait, from their sheet); the left side is ``character``'s."""
    if not words:
        return None
    split = split_words(ctx, words, {})
    left = build_pool(ctx, WORDS.term(ctx, split.left, "err.tug_usage"), character)
    if split.right is not None:
        right, _ = await right_side(
            ctx, split.right, left, "err.tug_usage", opponent=against, roller=character
        )
    elif left.trait and await find_character(ctx.session, SYSTEM, against) is not None:
        right, _ = await right_side(ctx, tuple(against.split()), left, "err.tug_usage", roller=character)
    else:
        raise fail(ctx, "err.tug_pools")
    return left, right


@COMMANDS.command(
    "tug start", "start a tug of war to a lead of N", "tug start NAME N [POOL vs POOL] [tn 2-6]"
)
async def tug_start_command(ctx: CommandContext, inv: Invocation) -> Reply:
    settings = ctx.settings_for(PravidlaSettings)
    words = list(inv.words)
    target = house(ctx).default_target  # the channel's; its default is ``[pravidla] default_target``
    lowered = [w.casefold() for w in words]
    if lowered.count("tn") + lowered.count("cc") > 1:
        raise fail(ctx, "err.option_twice", word="tn")
    for option in ("tn", "cc"):
        if option in lowered:
            where = lowered.index(option)
            if where + 1 >= len(words) or not is_digits(words[where + 1]):
                raise fail(ctx, "err.option", word=option, example=4)
            target = check_target(ctx, int(words[where + 1]))
            del words[where : where + 2]
            lowered = [w.casefold() for w in words]
    at = next((i for i, w in enumerate(words) if is_digits(w) and i > 0), None)
    if at is None:
        raise fail(ctx, "err.tug_usage")
    against, lead = " ".join(words[:at]), int(words[at])
    if not 1 <= lead <= settings.max_lead:
        raise fail(ctx, "err.tug_lead", max=settings.max_lead)
    existing = await state.load(ctx, TUG)
    if existing is not None:
        raise fail(ctx, "err.tug_running", left=existing["left"], right=existing["right"])
    character = await active_character(ctx, SYSTEM)
    # The book's tug of war is a contest "s výkonem jiného upíra nebo člověka": not oneself.
    if against.casefold() == who_of(ctx, character).casefold():
        raise fail(ctx, "err.self_tug", name=who_of(ctx, character))
    not_self(ctx, character, await find_character(ctx.session, SYSTEM, against), "err.self_tug")
    pools = await _tug_pools(ctx, tuple(words[at + 1 :]), against, character)
    data: dict[str, Any] = {
        "left": who_of(ctx, character),
        "right": against,
        "lead": lead,
        "target": target,
        "balance": 0,
        "round": 0,
        "pools": [pools[0].dice, pools[1].dice] if pools else None,
        "started_by": ctx.person.id,
    }
    await state.save(ctx, TUG, data)
    return Reply(
        text=t(ctx, "tug.started", left=data["left"], right=against, lead=lead),
        result={"kind": "tug", "system": SYSTEM, "tug": data},
    )


@COMMANDS.command("tug roll", "roll the next round of the tug of war", "tug roll [POOL vs POOL]")
async def tug_roll_command(ctx: CommandContext, inv: Invocation) -> Reply:
    data = await state.load(ctx, TUG)
    if data is None:
        raise fail(ctx, "tug.none")
    # Anyone at the table may roll a round; a trait is read from each side's own sheet (the left
    # side's, not the typer's: ``tug roll kondice vs kondice`` typed by a third player).
    left = await find_character(ctx.session, SYSTEM, str(data["left"]))
    pools = await _tug_pools(ctx, inv.words, data["right"], left) if inv.words else None
    sizes = [pools[0].dice, pools[1].dice] if pools else data.get("pools")
    if not sizes:
        raise fail(ctx, "err.tug_pools")
    outcome = mechanics.tug_round(
        int(data["balance"]), int(data["lead"]), sizes[0], sizes[1], ctx.dice, int(data["target"])
    )
    data = {**data, "balance": outcome.balance, "round": int(data["round"]) + 1}
    result = outcome.as_result()
    result["sides"][0]["who"], result["sides"][1]["who"] = data["left"], data["right"]
    result.update(round=data["round"], who=data["left"])
    character = await active_character(ctx, SYSTEM)
    char_id = character.id if character else None
    roll_id = await ctx.log_roll(result, character_id=char_id, name=who_of(ctx, character))
    if outcome.winner is not None:
        key = "tug.round.won"
        await state.drop(ctx, TUG)
    else:
        key = "tug.round.even" if outcome.balance == 0 else "tug.round.leads"
        await state.save(ctx, TUG, data)
    text = t(
        ctx,
        key,
        round=data["round"],
        left=data["left"],
        right=data["right"],
        left_faces=faces(outcome.left.dice),
        right_faces=faces(outcome.right.dice),
        ls=outcome.left.successes,
        rs=outcome.right.successes,
        leader=data["left"] if outcome.balance > 0 else data["right"],
        margin=abs(outcome.balance),
        lead=data["lead"],
        id=roll_id,
    )
    await ctx.stlog(text, kind="roll", result=result, character_id=char_id)
    return Reply(text=text, result=result)


@COMMANDS.command("tug stop", "call the tug of war off", "tug stop", params=())
async def tug_stop_command(ctx: CommandContext, inv: Invocation) -> Reply:
    data = await state.load(ctx, TUG)
    if data is None:
        raise fail(ctx, "tug.none")
    if not ctx.storyteller and data.get("started_by") != ctx.person.id:
        raise PermissionDenied(t(ctx, "err.tug_stop"))
    await state.drop(ctx, TUG)
    return Reply(
        text=t(ctx, "tug.stopped", left=data["left"], right=data["right"]),
        result={"kind": "tug", "system": SYSTEM, "tug": None},
    )


# --- initiative -----------------------------------------------------------------------------------


def _rank(ctx: CommandContext, entries: list[dict[str, Any]]) -> dict[str, Any]:
    return mechanics.initiative_order(entries, ctx.settings_for(PravidlaSettings), ctx.dice)


class PravidlaInitiative(InitiativeTracker):
    def require_powers(self, ctx: CommandContext, name: str, wanted: dict[str, Any], sheet: Any) -> None:
        """Refuse powers the sheet lacks, the power named in the accusative ("nemá v deníku
        Pokročilou Celeritu")."""
        missing = self.powers.missing(wanted, sheet)
        if missing is not None:
            power, level = missing
            key = f"power.{power}.acc" if power in self.powers.flags else f"power.{power}.{level}.acc"
            raise fail(ctx, "err.init_missing_power", name=name, power=t(ctx, key))


INITIATIVE = PravidlaInitiative(SYSTEM, CATALOGUE, mechanics.POWERS, _rank)


async def init_join_command(ctx: CommandContext, inv: Invocation) -> Reply:
    character = await active_character(ctx, SYSTEM)
    if character is None:
        raise fail(ctx, "err.no_active")
    powers = INITIATIVE.read_powers(ctx, inv.args.get("powers", "").split())
    sheet = PravidlaSheet.of(character.sheet)
    INITIATIVE.require_powers(ctx, character.name, powers, sheet)
    entry = {
        "name": character.name,
        "character_id": character.id,
        **powers,
        "stamina": sheet.rating("stamina"),
        "wits": sheet.rating("wits"),
    }
    return await INITIATIVE.join(ctx, entry)


async def init_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``init add NAME STAMINA WITS [powers]``; a name of a Pravidla character takes the sheet's."""
    name: str = inv.args.get("name", "")
    stamina: int | None = inv.args.get("stamina")
    wits: int | None = inv.args.get("wits")
    if stamina is None:
        character = await find_character(ctx.session, SYSTEM, name) if name else None
        if character is None:
            raise fail(ctx, "err.init_usage")
        sheet = PravidlaSheet.of(character.sheet)
        stamina, wits, char_id, name = (
            sheet.rating("stamina"),
            sheet.rating("wits"),
            character.id,
            character.name,
        )
    else:
        if wits is None:
            raise fail(ctx, "err.init_usage")
        if not 0 <= min(stamina, wits) <= max(stamina, wits) <= MAX_RATING:  # kept in the scene document
            raise fail(ctx, "err.init_rating", max=MAX_RATING)
        char_id = None
    powers = INITIATIVE.read_powers(ctx, inv.args.get("powers", "").split())
    entry = {"name": name[:60], "character_id": char_id, **powers, "stamina": stamina, "wits": wits}
    return await INITIATIVE.join(ctx, entry)
