"""Initiative for Night Wanderers (``gateway.rules.initiative_tracker``): powers, then 2d6 with the
lower total first."""

from __future__ import annotations

from typing import Any

from gateway import CommandContext, Invocation, Reply
from gateway.characters import find_character
from gateway.rules.initiative_tracker import InitiativeTracker
from gateway.rules.power_words import PowerWords
from plugins.nightwanderers import mechanics
from plugins.nightwanderers.commands import SYSTEM, fail, my_actor
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.messages import CATALOGUE
from plugins.nightwanderers.sheet import WandererSheet, norm

POWERS = PowerWords(
    fold=norm,
    flags={"hunting": frozenset({"hunt", "hunting", "instinct", "инстинкт", "охотничий"})},
    levelled={"celerity": frozenset({"celerity", "быстрота"})},
    levels={"basic": 1, "начальная": 1, "1": 1, "advanced": 2, "продвинутая": 2, "2": 2},
)


def _rank(ctx: CommandContext, entries: list[dict[str, Any]]) -> dict[str, Any]:
    settings = ctx.settings_for(NightWanderersSettings)
    extra = {0: 0, 1: settings.celerity_basic_extra, 2: settings.celerity_advanced_extra}
    combatants = [
        mechanics.Combatant(e["name"], bool(e["hunting"]), int(e["celerity"]), extra[int(e["celerity"])])
        for e in entries
    ]
    return mechanics.initiative(combatants, ctx.dice, settings.max_rerolls).as_result()


INITIATIVE = InitiativeTracker(SYSTEM, CATALOGUE, POWERS, _rank)


async def init_join_command(ctx: CommandContext, inv: Invocation) -> Reply:
    actor = await my_actor(ctx)
    assert actor is not None
    powers = INITIATIVE.read_powers(ctx, inv.words)
    INITIATIVE.require_powers(ctx, actor.name, powers, actor.sheet)
    return await INITIATIVE.join(ctx, {"name": actor.name, "character_id": actor.id, **powers})


async def init_add_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``init add NAME [hunting] [celerity basic|advanced]``: power words are read from the end."""
    words, tail = POWERS.split_tail(inv.words)
    name = " ".join(words)
    if not name:
        raise fail(ctx, "err.init_usage")
    powers = INITIATIVE.read_powers(ctx, tail)
    character = await find_character(ctx.session, SYSTEM, name)
    if character is not None:
        INITIATIVE.require_powers(ctx, character.name, powers, WandererSheet.of(character.sheet))
        name = character.name
    entry = {"name": name[:60], "character_id": character.id if character else None, **powers}
    return await INITIATIVE.join(ctx, entry)
