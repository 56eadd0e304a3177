"""Nightcap's vault helpers: the caller's character, its state checks, and pool maxima kept in step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import case
from sqlmodel import col, update

from gateway import CommandContext, UserError
from gateway.features.characters import lock_character, pools_of, require_active, set_pool
from gateway.vault.models import Character, Pool
from plugins.nightcap.config import NightcapSettings
from plugins.nightcap.rolls import SYSTEM
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
    if character.status != APPROVED:
        raise UserError(
            f"{character.name} is not approved yet: {what} works once a Storyteller approves the sheet"
            " (char submit when it is ready)."
        )


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
