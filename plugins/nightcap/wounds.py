"""Wound penalties for a character's pools (RULINGS, "Wound penalty"): off unless the chronicle
switches them on (the channel's ``wound_penalties`` house rule, whose default is the setting); -1
from the first threshold of damage, -2 from the second. Any command that rolls a pool from a
character's sheet asks here (``store.wound_penalty`` reads the damage) and shows the penalty in its
roll line."""

from __future__ import annotations

from gateway import CommandContext
from plugins.nightcap import combat
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.house import house


def penalty_for_damage(ctx: CommandContext, damage: int) -> int:
    settings = ctx.settings_for(NightcapSettings)
    return combat.wound_penalty(damage, house(ctx).wound_penalties, settings.wound_thresholds)


def label(text: str, value: int) -> str:
    """``Physical 3 (wounds -1)``: the penalty shown in the roll line."""
    return f"{text} (wounds {value:+d})" if value else text
