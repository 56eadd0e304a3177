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


def check_damage(character: str, damage: int, levels: int) -> None:
    """Refuse marking damage on a full track: nothing would change (the book: "At 10 you are
    Incapacitated")."""
    if incapacitated(damage, levels):
        raise UserError(
            f"{character}'s Health track is already full ({damage}/{levels}): {character} is"
            " Incapacitated and no more damage is marked."
        )


def damage_text(character: str, amount: int, before: int, levels: int) -> str:
    """What ``damage N`` marked: the levels that fit on the track, saying so when fewer than asked,
    and the state it leaves (``after_damage`` caps the track at ``levels``)."""
    after = after_damage(before, amount, levels)
    marked = after - before
    state = f" {character} is Incapacitated." if incapacitated(after, levels) else ""
    if marked == amount:
        return f"{character} takes {amount} damage: Health {track(after, levels)}.{state}"
    return (
        f"{character} takes {marked} of the {amount} damage: the Health track holds {levels} levels"
        f" and is now full, {track(after, levels)}.{state}"
    )


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
