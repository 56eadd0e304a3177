"""Who may act. Only an approved sheet plays: the book's HUD has Roll, Use Power and Health only in the
Gameplay menu ("Which menu you get depends on whether your sheet is locked"), so a sheet in creation or
waiting for approval does not act in play. At 10 damage a character is Incapacitated (RULINGS,
"Damage"), "no more actions, and your fate is in the scene's hands". Actions are what a character does
in the scene: rolls from the sheet, power use, contests, attacks, extended and team actions, and
healing themselves. Looking at a sheet, odds, the daily check-in (the day's regeneration, not a deed in
the scene) and the Storyteller's commands are not.

For the roll path the damage is read below the ORM with one prepared statement (``repo.pool_state``:
current and the track's length), and the same read gives the wound penalty, so a roll reads the pool
once."""

from __future__ import annotations

from gateway import CommandContext, UserError
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import combat
from plugins.nightcap.roll_texts import say

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


async def health_now(ctx: CommandContext, character: Character) -> tuple[int, int]:
    """(damage, track length) of ``character``, fresh from the vault; an empty track when it has none."""
    assert character.id is not None
    state = await repo.pool_state(ctx.unit, character.id, "damage")
    if state is None:
        return 0, combat.HEALTH_LEVELS
    return state[0], state[1] or combat.HEALTH_LEVELS


async def able_damage(ctx: CommandContext, character: Character, what: str, *, own: bool = True) -> int:
    """The damage ``character`` carries, refusing the action (``what``) when the sheet is not approved
    or the character is Incapacitated (``own``: as ``check_in_play``)."""
    check_in_play(character, what, own=own)
    damage, levels = await health_now(ctx, character)
    if combat.incapacitated(damage, levels):
        raise incapacitated_refusal(character.name, damage, levels)
    return damage
