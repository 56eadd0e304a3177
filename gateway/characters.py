"""Character look-ups every rule system shares. A person owns characters in several systems; the
active one is per person (``Person.active_character_id``) and only counts in its own system."""

from __future__ import annotations

from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.commands import CommandContext
from gateway.errors import UserError
from gateway.vault.models import Character, Pool


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


async def active_character(ctx: CommandContext, system: str | None = None) -> Character | None:
    """The caller's active character in ``system`` (default: the channel's), or None."""
    system = system or ctx.system.name
    if ctx.person.active_character_id is None:
        return None
    character = await ctx.session.get(Character, ctx.person.active_character_id)
    if character is None or character.system != system:
        return None
    return character


async def require_active(ctx: CommandContext, system: str | None = None) -> Character:
    character = await active_character(ctx, system)
    if character is None:
        raise UserError(
            "You have no active character here: char new NAME makes one, char use NAME picks one."
        )
    return character


async def find_character(session: AsyncSession, system: str, name: str) -> Character | None:
    found = await session.exec(
        select(Character).where(col(Character.system) == system, col(Character.name_key) == name_key(name))
    )
    return found.first()


async def owned_characters(session: AsyncSession, person_id: int, system: str) -> list[Character]:
    found = await session.exec(
        select(Character)
        .where(col(Character.owner_id) == person_id, col(Character.system) == system)
        .order_by(col(Character.id))
    )
    return list(found.all())


async def create_character(
    ctx: CommandContext, name: str, sheet: dict[str, Any], pools: dict[str, tuple[int, int]] | None = None
) -> Character:
    """A new character of the channel's system, owned by the caller and made active."""
    clean = " ".join(name.split())
    if not clean or len(clean) > 60:
        raise UserError("A character name is 1 to 60 characters long.")
    if await find_character(ctx.session, ctx.system.name, clean) is not None:
        raise UserError(f"There is already a {ctx.system.title} character called {clean}.")
    assert ctx.person.id is not None
    character = Character(
        owner_id=ctx.person.id, system=ctx.system.name, name=clean, name_key=name_key(clean), sheet=sheet
    )
    ctx.session.add(character)
    await ctx.session.flush()
    assert character.id is not None
    for pool_name, (current, maximum) in (pools or {}).items():
        ctx.session.add(Pool(character_id=character.id, name=pool_name, current=current, maximum=maximum))
    ctx.person.active_character_id = character.id
    ctx.session.add(ctx.person)
    return character


async def pools_of(session: AsyncSession, character_id: int) -> dict[str, Pool]:
    found = await session.exec(select(Pool).where(col(Pool.character_id) == character_id))
    return {p.name: p for p in found.all()}
