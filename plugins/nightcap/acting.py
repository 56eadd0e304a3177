"""Who may act. Only an approved sheet plays: the book's HUD has Roll, Use Power and Health only in the
Gameplay menu ("Which menu you get depends on whether your sheet is locked"), so a sheet in creation or
waiting for approval does not act in play. At 10 damage a character is Incapacitated (RULINGS,
"Damage"), "no more actions, and your fate is in the scene's hands". Actions are what a character does
in the scene: rolls from the sheet, power use, contests, attacks, extended and team actions, and
healing themselves. Looking at a sheet, odds, the daily check-in (the day's regeneration, not a deed in
the scene) and the Storyteller's commands are not. Pure: ``store.able_damage`` reads the damage and asks here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gateway import UserError
from plugins.nightcap.roll_texts import say

if TYPE_CHECKING:
    from gateway import Character

APPROVED = "approved"


def check_in_play(character: Character, what: str, *, own: bool = True) -> None:
    """Refuse ``what`` for a sheet not approved yet; ``own``: the caller plays it (else it is the
    other side of a contest, an attack or a fight)."""
    if character.status == APPROVED:
        return
    if own:
        raise UserError(
            f"{character.name} is not approved yet: {what} works once a Storyteller approves the sheet"
            " (char submit when it is ready)."
        )
    raise UserError(f"{character.name} is not approved yet: a sheet still in creation takes no part in play.")


def incapacitated_refusal(name: str, damage: int, levels: int) -> UserError:
    return UserError(say("incapacitated", name=name, damage=damage, levels=levels))
