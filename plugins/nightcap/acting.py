"""Who may act (RULINGS, "Damage"): at 10 damage a character is Incapacitated, "no more actions, and
your fate is in the scene's hands". Actions are what a character does in the scene: rolls from the
sheet, power use, contests, attacks, extended and team actions. Looking at a sheet, odds, the daily
check-in (the day's regeneration, not a deed in the scene) and the Storyteller's commands are not.

For the roll path the damage is read below the ORM with one prepared statement (``repo.pool_state``:
current and the track's length), and the same read gives the wound penalty, so a roll reads the pool
once."""

from __future__ import annotations

from gateway import CommandContext, UserError
from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import combat
from plugins.nightcap.roll_texts import say


def incapacitated_refusal(name: str, damage: int, levels: int) -> UserError:
    return UserError(say("incapacitated", name=name, damage=damage, levels=levels))


async def health_now(ctx: CommandContext, character: Character) -> tuple[int, int]:
    """(damage, track length) of ``character``, fresh from the vault; an empty track when it has none."""
    assert character.id is not None
    state = await repo.pool_state(ctx.unit, character.id, "damage")
    if state is None:
        return 0, combat.HEALTH_LEVELS
    return state[0], state[1] or combat.HEALTH_LEVELS


async def able_damage(ctx: CommandContext, character: Character) -> int:
    """The damage ``character`` carries, refusing the action when they are Incapacitated."""
    damage, levels = await health_now(ctx, character)
    if combat.incapacitated(damage, levels):
        raise incapacitated_refusal(character.name, damage, levels)
    return damage
