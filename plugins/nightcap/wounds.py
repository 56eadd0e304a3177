"""Wound penalties for a character's pools (RULINGS, "Wound penalty"): off unless the chronicle
switches them on (the channel's ``wound_penalties`` house rule, whose default is the setting); -1
from the first threshold of damage, -2 from the second. Any command that rolls a pool from a
character's sheet asks here and shows the penalty in its roll line."""

from __future__ import annotations

from gateway import CommandContext
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import combat
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.house import house

DAMAGE_POOL = "damage"


def penalty_for_damage(ctx: CommandContext, damage: int) -> int:
    settings = ctx.settings_for(NightcapSettings)
    return combat.wound_penalty(damage, house(ctx).wound_penalties, settings.wound_thresholds)


async def penalty(ctx: CommandContext, character: Character | None) -> int:
    """The wound penalty (0, -1 or -2) on ``character``'s pools right now: no read at all while the
    chronicle has wound penalties off, else the damage pool's current value from the vault."""
    # The channel's house rule, whose default is ``[nightcap] wound_penalties``.
    if character is None or character.id is None or not house(ctx).wound_penalties:
        return 0
    # Below the ORM (``repo.pool_current``): every trait roll asks this.
    damage = await repo.pool_current(ctx.unit, character.id, DAMAGE_POOL)
    return 0 if damage is None else penalty_for_damage(ctx, damage)


def label(text: str, value: int) -> str:
    """``Physical 3 (wounds -1)``: the penalty shown in the roll line."""
    return f"{text} (wounds {value:+d})" if value else text
