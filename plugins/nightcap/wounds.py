"""Wound penalties for a character's pools (RULINGS, "Wound penalty"): off unless the chronicle
switches them on; -1 from the first threshold of damage, -2 from the second. Any command that rolls a
pool from a character's sheet asks here and shows the penalty in its roll line."""

from __future__ import annotations

from gateway import CommandContext
from gateway.characters import pools_of
from gateway.vault.models import Character
from plugins.nightcap import combat
from plugins.nightcap.config import NightcapSettings

DAMAGE_POOL = "damage"


def penalty_for_damage(ctx: CommandContext, damage: int) -> int:
    settings = ctx.settings_for(NightcapSettings)
    return combat.wound_penalty(damage, settings.wound_penalties, settings.wound_thresholds)


async def penalty(ctx: CommandContext, character: Character | None) -> int:
    """The wound penalty (0, -1 or -2) on ``character``'s pools right now."""
    if character is None or character.id is None:
        return 0
    pool = (await pools_of(ctx.session, character.id)).get(DAMAGE_POOL)
    if pool is None:
        return 0
    await ctx.session.refresh(pool)
    return penalty_for_damage(ctx, pool.current)


def label(text: str, value: int) -> str:
    """``Physical 3 (wounds -1)``: the penalty shown in the roll line."""
    return f"{text} (wounds {value:+d})" if value else text
