"""Damage, soak, the Health track, wound penalties and power tiers (pure; RULINGS, "Damage",
"Wound penalty", "Powers against powers")."""

from __future__ import annotations

from dataclasses import dataclass

from plugins.nightcap import health
from plugins.nightcap.mechanics import Contest
from plugins.nightcap.powers import TIERS

HEALTH_LEVELS = 10  # ten damage = Incapacitated (the [nightcap] health_levels default)


def tier_dice(tier: str) -> int:
    """Dice a power adds in a power-against-power contest: one per tier above Basic (Adept +1, Advanced +2,
    Epic +3, Legendary +4). A mundane side adds none."""
    return TIERS[tier].rank - 1


@dataclass(frozen=True)
class Hit:
    """What an attack did: the contest's margin, the soak, and the damage that sticks."""

    hit: bool
    margin: int
    soak: int
    damage: int


def attack_damage(result: Contest, soak: int) -> Hit:
    """The attacker is side 0. A win deals margin - soak, never below 0; a deadlock or a defender's win
    (and a both-botch) deal nothing."""
    if result.winner != 0:
        return Hit(hit=False, margin=result.margin, soak=soak, damage=0)
    return Hit(hit=True, margin=result.margin, soak=soak, damage=max(0, result.margin - max(0, soak)))


def take_damage(current: int, damage: int, levels: int = HEALTH_LEVELS) -> int:
    """Damage after a hit, capped at the track's length."""
    return health.after_damage(max(0, current), max(0, damage), levels)


def incapacitated(damage: int, levels: int = HEALTH_LEVELS) -> bool:
    return health.incapacitated(damage, levels)


def wound_penalty(damage: int, enabled: bool, thresholds: tuple[int, int] = (4, 7)) -> int:
    """-1 at the first threshold of damage, -2 at the second; 0 when the chronicle has them off."""
    if not enabled:
        return 0
    first, second = thresholds
    if damage >= second:
        return -2
    if damage >= first:
        return -1
    return 0
