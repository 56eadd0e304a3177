"""The Health track and healing (RULINGS, "Damage", "Healing"). Pure.

Damage is counted in levels on a track of ``levels`` (10): at ``levels`` the character is Incapacitated.
1 Essence heals 1 level; healing is refused at 0 Essence or 0 damage.
"""

from __future__ import annotations

from gateway import UserError


def after_damage(damage: int, amount: int, levels: int) -> int:
    """Damage after taking ``amount`` more, capped at the track's end."""
    return min(levels, damage + amount)


def incapacitated(damage: int, levels: int) -> bool:
    return damage >= levels


def check_heal(character: str, damage: int, essence: int, amount: int) -> None:
    """Refuse healing ``amount`` levels when there is nothing to heal or not enough Essence."""
    if amount < 1:
        raise UserError("Write heal or heal N, with N a number of levels of at least 1.")
    if damage == 0:
        raise UserError(f"{character} has no damage to heal.")
    if essence == 0:
        raise UserError(f"{character} has no Essence to heal with: 1 Essence heals 1 level.")
    if amount > damage:
        raise UserError(f"{character} has only {damage} damage to heal: write heal {damage}.")
    if amount > essence:
        raise UserError(
            f"Healing {amount} levels costs {amount} Essence; {character} has {essence}:"
            f" write heal {essence}."
        )


def track(damage: int, levels: int) -> str:
    """``■■■□□□□□□□ 3/10``: one mark per level of damage."""
    filled = min(damage, levels)
    return "■" * filled + "□" * (levels - filled) + f" {damage}/{levels}"
