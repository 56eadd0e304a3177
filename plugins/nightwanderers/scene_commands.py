"""Initiative for Night Wanderers (``gateway.rules.initiative_tracker``): powers, then 2d6 with the
lower total first, a successful dodge's -1 taken once on the next roll."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from gateway import CommandContext, CommandSet, Invocation, Reply
from gateway.core import scene
from gateway.features.characters import find_character
from gateway.rules.initiative_tracker import InitiativeTracker
from gateway.vault.models import Character
from plugins.nightwanderers import store as episode
from plugins.nightwanderers import tactics
from plugins.nightwanderers.combat_commands import harm
from plugins.nightwanderers.commands import SYSTEM, fail, load_actor, my_actor, t
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.registry import command
from plugins.nightwanderers.sheet import WandererSheet, norm

COMMANDS = CommandSet(SYSTEM)


def _rank(
    ctx: CommandContext, entries: list[dict[str, Any]], bonuses: dict[str, int] | None = None
) -> dict[str, Any]:
    return tactics.initiative_order(entries, ctx.settings_for(NightWanderersSettings), ctx.dice, bonuses)


class WandererInitiative(InitiativeTracker):
    """``init roll`` takes the bonuses waiting for this channel's next roll (a dodge's -1), once."""

    async def roll(self, ctx: CommandContext, inv: Invocation) -> Reply:
        bonuses = await episode.take_initiative_bonuses(ctx)

        def rank(c: CommandContext, entries: list[dict[str, Any]]) -> dict[str, Any]:
            return _rank(c, entries, bonuses)

        reply = await InitiativeTracker.roll(replace(self, rank=rank), ctx, inv)
        used = (reply.result or {}).get("bonuses") or {}
        if not used:
            return reply
        notes = [t(ctx, "init.dodge_bonus", name=name, bonus=bonus) for name, bonus in used.items()]
        return replace(reply, text=" ".join([*notes, reply.text]))


INITIATIVE = WandererInitiative(SYSTEM, CATALOGUE, tactics.POWERS, _rank)


async def init_join_command(ctx: CommandContext, inv: Invocation) -> Reply:
    actor = await my_actor(ctx)
    assert actor is not None
    powers = INITIATIVE.read_powers(ctx, inv.args.get("powers", "").split())
    INITIATIVE.require_powers(ctx, actor.name, powers, actor.sheet)
    return await INITIATIVE.join(ctx, {"name": actor.name, "character_id": actor.id, **powers})


async def init_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``init add NAME [hunting] [celerity basic|advanced]``: power words are read from the end."""
    words, tail = tactics.POWERS.split_tail(inv.words)
    name = " ".join(words)
    if not name:
        raise fail(ctx, "err.init_usage")
    for i, word in enumerate(words[1:], start=1):
        # ``init add Максина быстрота 3``: Celerity's level is 0/1/2, never part of a name.
        if norm(word) in tactics.POWERS.levelled["celerity"]:
            if i + 1 >= len(words):
                raise fail(ctx, "err.init_usage")
            power = t(ctx, "field.celerity")
            raise fail(ctx, "err.init_power_level", power=power, value=words[i + 1][:20])
    powers = INITIATIVE.read_powers(ctx, tail)
    character = await find_character(ctx.session, SYSTEM, name)
    if character is not None:
        INITIATIVE.require_powers(ctx, character.name, powers, WandererSheet.of(character.sheet))
        name = character.name
    entry = {"name": name[:60], "character_id": character.id if character else None, **powers}
    return await INITIATIVE.join(ctx, entry)


# --- the end of an episode and the passing of a turn ----------------------------------------------

SCENE_MARKER = "* * *"


@command(
    COMMANDS,
    SCENE_MARKER,
    "end the episode in this channel",
    SCENE_MARKER,
    ("конец эпизода в этом канале", SCENE_MARKER),
    bare=True,
)
@command(
    COMMANDS,
    "scene end",
    "end the episode here (same as * * *): frenzy, blood boosts and the episode's effects end",
    "scene end",
    ("конец эпизода (то же, что * * *): Безумие, усиление кровью и эффекты эпизода проходят", "scene end"),
)
async def scene_end_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """ "Безумие кончается с концом эпизода": the characters this episode touched (and those in
    this channel's initiative) leave frenzy, their blood boost fades (a reading: the book gives the
    boost no length) and the odd turn of slow exposure is forgotten; the initiative, holds, tug of
    war, alerts, blood drunk and dismemberment under way end."""
    if inv.words:
        raise fail(ctx, "err.scene_end_usage")
    data = await episode.load(ctx)
    order = await scene.load(ctx, "initiative") or {}
    fighters = [e["character_id"] for e in order.get("entries", []) if e.get("character_id")]
    names: list[str] = []
    for character_id in dict.fromkeys([*data.get("effects", []), *fighters]):
        character = await ctx.session.get(Character, character_id)
        if character is None:
            continue
        actor = await load_actor(ctx, character)
        sheet = actor.sheet
        if sheet.frenzy or sheet.boost or any(sheet.exposure.values()):
            sheet.frenzy, sheet.boost, sheet.exposure = False, 0, {}
            actor.save_sheet(ctx)
            names.append(actor.name)
    for kind in episode.CLEARED:
        await scene.drop(ctx, kind)
    text = t(ctx, "episode.end.effects", names=", ".join(names)) if names else t(ctx, "episode.end")
    result = {"kind": "scene_end", "system": SYSTEM, "channel": ctx.channel.key, "ended": names}
    await ctx.stlog(text, kind="scene_end", result=result)
    return Reply(text=text, result=result)


@command(
    COMMANDS,
    "turn",
    "Storyteller: N turns pass here: the dying lose 1 HP a turn, the initiative is rolled again",
    "turn [N]",
    (
        "DM: проходит N ходов: умирающие теряют по уровню Здоровья за ход, инициатива бросается заново",
        "turn [N]",
    ),
    role="storyteller",
)
async def turn_command(ctx: CommandContext, inv: Invocation) -> list[Reply]:
    """ "оборотень и человек падают без сознания и каждый ход теряют по единице здоровья, если оно
    опустится до – 10 наступает Окончательная Смерть.\""""
    turns: int = inv.args.get("amount", 1)  # 1 to 20 (``params``)
    data = await episode.load(ctx)
    order = await scene.load(ctx, "initiative") or {}
    ids = [
        *data.get("dying", []),
        *(e["character_id"] for e in order.get("entries", []) if e.get("character_id")),
    ]
    sentences: list[str] = []
    bled: list[dict[str, Any]] = []
    for character_id in dict.fromkeys(ids):
        character = await ctx.session.get(Character, character_id)
        if character is None:
            continue
        actor = await load_actor(ctx, character, lock=True)
        if actor.status != "unconscious":
            await episode.forget(ctx, "dying", actor.id)
            continue
        result: dict[str, Any] = {}
        sentences.append(t(ctx, "turn.bleeds", name=actor.name, n=turns))
        sentences += await harm(ctx, actor, turns, False, result)
        bled.append(result["target"])
    text = " ".join([t(ctx, "turn", n=turns), *sentences])
    result = {"kind": "turn", "system": SYSTEM, "turns": turns, "dying": bled}
    await ctx.stlog(text, kind="turn", result=result)
    replies = [Reply(text=text, result=result)]
    if order.get("entries"):
        replies.append(await INITIATIVE.roll(ctx, Invocation("init roll", (), "init roll")))
    return replies
