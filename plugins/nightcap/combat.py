"""Damage, soak, the Health track, wound penalties and power tiers (pure; RULINGS, "Damage",
"Wound penalty", "Powers against powers")."""

from __future__ import annotations

from dataclasses import dataclass

from plugins.nightcap.mechanics import Contest

HEALTH_LEVELS = 10  # ten damage = Incapacitated

# Tier -> (dots to learn, Essence to use, tier dice in a power-against-power contest).
TIERS: dict[str, tuple[int, int, int]] = {
    "basic": (1, 0, 0),
    "adept": (2, 1, 1),
    "advanced": (3, 2, 2),
    "epic": (4, 3, 3),
    "legendary": (5, 4, 4),
}
TIER_ORDER = tuple(TIERS)


def match_tier(word: str) -> str | None:
    """A tier by case-insensitive unique prefix (``adv`` -> ``advanced``, ``ad`` is ambiguous), or None."""
    folded = word.casefold()
    if folded in TIERS:
        return folded
    matches = [t for t in TIER_ORDER if t.startswith(folded)]
    return matches[0] if len(matches) == 1 else None


def tier_cost(tier: str) -> int:
    return TIERS[tier][1]


def tier_dice(tier: str) -> int:
    """Adept +1, Advanced +2, Epic +3, Legendary +4; Basic (and a mundane side) +0."""
    return TIERS[tier][2]


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
    return min(levels, max(0, current) + max(0, damage))


def incapacitated(damage: int, levels: int = HEALTH_LEVELS) -> bool:
    return damage >= levels


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
