"""Wound penalties for a character's pools (RULINGS, "Wound penalty"): off unless the chronicle
switches them on; -1 from the first threshold of damage, -2 from the second. Any command that rolls a
pool from a character's sheet asks here and shows the penalty in its roll line."""

from __future__ import annotations

from sqlalchemy import bindparam, select
from sqlmodel import col

from gateway import CommandContext
from gateway.vault.models import Character, Pool
from gateway.vault.prepared import Prepared
from plugins.nightcap import combat
from plugins.nightcap.config import NightcapSettings

DAMAGE_POOL = "damage"
# Below the ORM (see ``gateway.vault.prepared``): a trait roll asks this on every roll.
_DAMAGE = Prepared(
    select(col(Pool.current)).where(
        col(Pool.character_id) == bindparam("character_id"), col(Pool.name) == DAMAGE_POOL
    )
)


def penalty_for_damage(ctx: CommandContext, damage: int) -> int:
    settings = ctx.settings_for(NightcapSettings)
    return combat.wound_penalty(damage, settings.wound_penalties, settings.wound_thresholds)


async def penalty(ctx: CommandContext, character: Character | None) -> int:
    """The wound penalty (0, -1 or -2) on ``character``'s pools right now: no read at all while the
    chronicle has wound penalties off, else the damage pool's current value from the vault."""
    if character is None or character.id is None or not ctx.settings_for(NightcapSettings).wound_penalties:
        return 0
    row = await ctx.unit.first(_DAMAGE, {"character_id": character.id})
    return 0 if row is None else penalty_for_damage(ctx, int(row[0]))


def label(text: str, value: int) -> str:
    """``Physical 3 (wounds -1)``: the penalty shown in the roll line."""
    return f"{text} (wounds {value:+d})" if value else text
