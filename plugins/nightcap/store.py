"""Nightcap's vault helpers: the caller's character, its state checks, its pools (maxima kept in step,
damage and wound penalty, Essence paid for a power) and the Storyteller's pending ruling on its roll."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import case
from sqlmodel import col, update

from gateway import CommandContext, UserError
from gateway.features.characters import lock_character, pools_of, require_active, set_pool
from gateway.vault import repo
from gateway.vault.models import Character, Pool
from plugins.nightcap import combat, wounds
from plugins.nightcap.acting import check_in_play, incapacitated_refusal
from plugins.nightcap.config import SYSTEM, NightcapSettings
from plugins.nightcap.house import house
from plugins.nightcap.pools import PoolSpec
from plugins.nightcap.power_sides import PowerChoice
from plugins.nightcap.powers import cost_refusal
from plugins.nightcap.rulings import RULING
from plugins.nightcap.sheet import DAMAGE, ESSENCE, POOLS, WILLPOWER, normalise, pool_maxima

CREATION, SUBMITTED, APPROVED = "creation", "submitted", "approved"


async def my_character(ctx: CommandContext, *, lock: bool = False) -> Character:
    """The caller's active Nightcap character (row-locked for a sheet edit when ``lock``)."""
    character = await require_active(ctx, SYSTEM)
    if lock:
        assert character.id is not None
        character = await lock_character(ctx.session, character.id)
    return character


def sheet_of(character: Character) -> dict[str, Any]:
    return normalise(character.sheet)


def require_approved(character: Character, what: str) -> None:
    check_in_play(character, what)


def open_for_edit(character: Character) -> str:
    """Refuse a player's edit of a locked sheet; an edit withdraws a submission (returns a note)."""
    if character.status == APPROVED:
        raise UserError(f"{character.name} is approved and locked: changes go through a Storyteller.")
    if character.status == SUBMITTED:
        character.status = CREATION
        return " Submission withdrawn: char submit again when you are done."
    return ""


def maxima(ctx: CommandContext, sheet: dict[str, Any]) -> dict[str, int]:
    ns = ctx.settings_for(NightcapSettings)
    return pool_maxima(sheet, essence_max=ns.essence_max, health_levels=ns.health_levels)


def initial_pools(ctx: CommandContext, sheet: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Pools of a new sheet: maxima set, empty until approval fills them; no damage."""
    return {name: (0, maximum) for name, maximum in maxima(ctx, sheet).items()}


async def sync_maxima(ctx: CommandContext, character: Character) -> dict[str, int]:
    """Pool maxima after a sheet edit, each current value capped in the same atomic UPDATE."""
    assert character.id is not None
    wanted = maxima(ctx, sheet_of(character))
    existing = await pools_of(ctx.session, character.id)
    for name, maximum in wanted.items():
        if name not in existing:
            ctx.session.add(Pool(character_id=character.id, name=name, current=0, maximum=maximum))
            continue
        stmt = (
            update(Pool)
            .where(col(Pool.character_id) == character.id, col(Pool.name) == name)
            .values(
                maximum=maximum,
                current=case((col(Pool.current) > maximum, maximum), else_=col(Pool.current)),
            )
        )
        await ctx.session.exec(stmt)  # type: ignore[call-overload]
    await ctx.session.flush()
    return wanted


async def pool_values(ctx: CommandContext, character: Character) -> dict[str, tuple[int, int]]:
    """(current, maximum) of each Nightcap pool, fresh from the vault."""
    assert character.id is not None
    found = await pools_of(ctx.session, character.id)
    for pool in found.values():
        await ctx.session.refresh(pool)
    rows = {name: (pool.current, pool.maximum) for name, pool in found.items()}
    return pools_shown(ctx, sheet_of(character), rows)


def pools_shown(
    ctx: CommandContext, sheet: dict[str, Any], rows: Mapping[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    """The Nightcap pools of ``rows`` (a character's (current, maximum) by name, as read), in sheet
    order, with a pool the vault lacks shown empty at its maximum (``sheet``: ``sheet_of``'s)."""
    values = {name: rows[name] for name in POOLS if name in rows}
    for name, maximum in maxima(ctx, sheet).items():
        values.setdefault(name, (0, maximum))
    return values


async def fill_pools(ctx: CommandContext, character: Character) -> None:
    """Approval: Willpower and Essence full, no damage."""
    assert character.id is not None
    wanted = maxima(ctx, sheet_of(character))
    await set_pool(ctx.session, character.id, WILLPOWER, current=wanted[WILLPOWER], maximum=wanted[WILLPOWER])
    await set_pool(ctx.session, character.id, ESSENCE, current=wanted[ESSENCE], maximum=wanted[ESSENCE])
    await set_pool(ctx.session, character.id, DAMAGE, current=0, maximum=wanted[DAMAGE])


# -- acting: damage, the wound penalty, the Storyteller's ruling, Essence --------------------------------
# For the roll path the damage is read below the ORM with one prepared statement (``repo.pool_state``:
# current and the track's length), and the same read gives the wound penalty, so a roll reads the pool once.


async def health_now(ctx: CommandContext, character: Character) -> tuple[int, int]:
    """(damage, track length) of ``character``, fresh from the vault; an empty track when it has none."""
    assert character.id is not None
    state = await repo.pool_state(ctx.unit, character.id, DAMAGE)
    if state is None:
        return 0, combat.HEALTH_LEVELS
    return state[0], state[1] or combat.HEALTH_LEVELS


async def able_damage(ctx: CommandContext, character: Character, what: str, *, own: bool = True) -> int:
    """The damage ``character`` carries, refusing the action (``what``) when the sheet is not approved
    or the character is Incapacitated (``own``: as ``acting.check_in_play``)."""
    check_in_play(character, what, own=own)
    damage, levels = await health_now(ctx, character)
    if combat.incapacitated(damage, levels):
        raise incapacitated_refusal(character.name, damage, levels)
    return damage


async def wound_penalty(ctx: CommandContext, character: Character | None) -> int:
    """The wound penalty (0, -1 or -2) on ``character``'s pools right now: no read at all while the
    chronicle has wound penalties off, else the damage pool's current value from the vault."""
    # The channel's house rule, whose default is ``[nightcap] wound_penalties``.
    if character is None or character.id is None or not house(ctx).wound_penalties:
        return 0
    # Below the ORM (``repo.pool_current``): every trait roll asks this.
    damage = await repo.pool_current(ctx.unit, character.id, DAMAGE)
    return 0 if damage is None else wounds.penalty_for_damage(ctx, damage)


async def overrule(
    ctx: CommandContext, character: Character | None, spec: PoolSpec
) -> tuple[PoolSpec, dict[str, Any] | None]:
    """``spec`` with the Storyteller's pending ruling (``rulings``) in place of the proposed modifiers,
    and the ruling as spent (with what was proposed); unchanged when there is none or the pool is a
    bare number (the whole pool, not read from the sheet). Spending it is a row-locked write, so two
    rolls never both spend it."""
    if character is None or character.id is None or spec.number is not None:
        return spec, None
    if not (character.sheet or {}).get(RULING):
        return spec, None
    locked = await lock_character(ctx.session, character.id)
    sheet = dict(locked.sheet or {})
    ruling = sheet.pop(RULING, None)
    if not ruling:
        return spec, None  # spent by another roll a moment ago
    locked.sheet = sheet
    ctx.session.add(locked)
    value = int(ruling["value"])
    spent = {**ruling, "proposed": list(spec.modifiers)}
    return replace(spec, modifiers=(value,) if value else ()), spent


async def essence_of(ctx: CommandContext, character: Character) -> int:
    return (await pool_values(ctx, character))[ESSENCE][0]


async def check_can_pay(ctx: CommandContext, choice: PowerChoice) -> int:
    """Refuse (nothing spent) when the pool cannot pay; return the Essence before paying."""
    essence = await essence_of(ctx, choice.character)
    refusal = cost_refusal(choice.power["name"], choice.cost, choice.character.name, essence)
    if refusal:
        raise UserError(refusal)
    return essence


async def pay(ctx: CommandContext, choice: PowerChoice) -> None:
    assert choice.character.id is not None
    if choice.cost.essence and not await repo.spend_pool(
        ctx.session, choice.character.id, ESSENCE, choice.cost.essence
    ):
        raise UserError(f"{choice.character.name}'s Essence changed meanwhile; nothing was spent. Try again.")
