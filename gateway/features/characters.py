"""Character look-ups every rule system shares. A person owns characters in several systems; the
active one is per person (``Person.active_character_id``) and only counts in its own system.

A retired character (``retire_character``) keeps its row, rolls and logs, but no look-up here finds
it: names are unique per system among the characters in play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.commands import CommandContext
from gateway.core.errors import UserError
from gateway.vault.models import Character, IdentityLink, Person, Pool
from gateway.vault.name_search import characters_holding

# Joins a retired character's name key and id: never in a name's key, since names are folded on
# white space and this is white space to ``str.split``.
RETIRED_MARK = "\x1f"


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def retired_key(key: str, character_id: int) -> str:
    """The name key of a retired character: out of the names' space, so the name is free again and
    ``UNIQUE (system, name_key)`` holds among the characters in play."""
    return f"{key}{RETIRED_MARK}{character_id}"


def in_play() -> Any:
    """The condition every look-up of characters by name or owner adds: not retired."""
    return col(Character.retired_at).is_(None)


async def active_character(ctx: CommandContext, system: str | None = None) -> Character | None:
    """The caller's active character in ``system`` (default: the channel's), or None. One prepared
    read below the ORM, or none when the session holds the row (``Sender.active_character``)."""
    return await ctx.sender.active_character(system or ctx.system.name)


async def require_active(ctx: CommandContext, system: str | None = None) -> Character:
    character = await active_character(ctx, system)
    if character is None:
        raise UserError(
            "You have no active character here: char new NAME makes one, char use NAME picks one."
        )
    return character


async def find_character(session: AsyncSession, system: str, name: str) -> Character | None:
    found = await session.exec(
        select(Character).where(
            col(Character.system) == system, col(Character.name_key) == name_key(name), in_play()
        )
    )
    return found.first()


async def character_name(session: AsyncSession, character_id: int) -> str | None:
    """The character's name, None when there is no such character (deleted meanwhile)."""
    character = await session.get(Character, character_id)
    return None if character is None else character.name


async def owned_characters(session: AsyncSession, person_id: int, system: str) -> list[Character]:
    found = await session.exec(
        select(Character)
        .where(col(Character.owner_id) == person_id, col(Character.system) == system, in_play())
        .order_by(col(Character.id))
    )
    return list(found.all())


async def create_character(
    ctx: CommandContext, name: str, sheet: dict[str, Any], pools: dict[str, tuple[int, int]] | None = None
) -> Character:
    """A new character of the channel's system, owned by the caller and made active."""
    clean = clean_name(name)
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


async def pool_value(session: AsyncSession, character_id: int, name: str) -> tuple[int, int] | None:
    """A pool's (current, maximum) read from the database, not the session's cache; None when missing."""
    found = await session.exec(
        select(Pool.current, Pool.maximum).where(
            col(Pool.character_id) == character_id, col(Pool.name) == name
        )
    )
    row = found.first()
    return None if row is None else (int(row[0]), int(row[1]))


def clean_name(name: str) -> str:
    """A character name with its white space folded; refused when empty or longer than 60 characters."""
    clean = " ".join(name.split())
    if not clean or len(clean) > 60:
        raise UserError("A character name is 1 to 60 characters long.")
    return clean


async def rename_character(session: AsyncSession, character: Character, new_name: str) -> str:
    """Rename ``character`` (unique per system, ignoring case); returns the old name."""
    clean = clean_name(new_name)
    other = await find_character(session, character.system, clean)
    if other is not None and other.id != character.id:
        raise UserError(f"There is already a character called {other.name}.")
    old = character.name
    character.name, character.name_key = clean, name_key(clean)
    session.add(character)
    return old


async def lock_character(session: AsyncSession, character_id: int) -> Character:
    """Re-read a character for a read-modify-write of its sheet, holding its row lock until commit.

    ``SELECT ... FOR UPDATE`` on PostgreSQL; on SQLite the unit of work already holds the write lock.
    """
    stmt = (
        select(Character)
        .where(col(Character.id) == character_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return (await session.exec(stmt)).one()


async def take_character(
    session: AsyncSession, system: str, words: Sequence[str]
) -> tuple[Character, list[str]] | None:
    """The character named by the longest run of leading ``words`` (``Mira Vance origin Mage`` ->
    Mira Vance, ``[origin, Mage]``), or None when no prefix names one."""
    for n in range(len(words), 0, -1):
        character = await find_character(session, system, " ".join(words[:n]))
        if character is not None:
            return character, list(words[n:])
    return None


async def characters_in(
    session: AsyncSession,
    system: str,
    *,
    statuses: Iterable[str] | None = None,
    name_contains: str | None = None,
    limit: int = 200,
) -> list[Character]:
    """Characters of ``system`` by name, optionally of some statuses or with a name containing a text
    (``%`` and ``_`` in it match themselves)."""
    if name_contains:
        return await characters_holding(session, system, name_key(name_contains), statuses, limit)
    query = select(Character).where(col(Character.system) == system, in_play())
    if statuses is not None:
        query = query.where(col(Character.status).in_(list(statuses)))
    found = await session.exec(query.order_by(col(Character.name_key)).limit(limit))
    return list(found.all())


async def set_pool(
    session: AsyncSession,
    character_id: int,
    name: str,
    *,
    current: int | None = None,
    maximum: int | None = None,
) -> Pool:
    """Set a pool's current value and/or maximum by hand (created when missing)."""
    pool = await session.get(Pool, (character_id, name))
    if pool is None:
        pool = Pool(character_id=character_id, name=name, current=0, maximum=0)
    if maximum is not None:
        pool.maximum = maximum
    if current is not None:
        pool.current = current
    session.add(pool)
    await session.flush()
    return pool


async def owner_names(session: AsyncSession, person_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(set(person_ids))
    if not ids:
        return {}
    found = await session.exec(select(Person).where(col(Person.id).in_(ids)))
    return {p.id: p.display_name for p in found.all() if p.id is not None}


@dataclass(frozen=True)
class PlayerCharacters:
    """Who an identity is, and their characters in one system (for a HUD's menus)."""

    person_id: int
    storyteller_flag: bool  # the person's own role (``gateway.features.roles.is_storyteller`` adds the rest)
    locale: str | None
    names: list[str]  # owned characters of the system, oldest first
    active: Character | None  # the active character, if it is one of the system's


async def player_characters(
    session: AsyncSession, identity_key: str, system: str, limit: int
) -> PlayerCharacters | None:
    """The identity's person and their first ``limit`` characters of ``system``; None for an
    identity no person has yet."""
    link = await session.get(IdentityLink, identity_key)
    person = await session.get(Person, link.person_id) if link is not None else None
    if person is None or person.id is None:
        return None
    owned = await session.exec(
        select(Character.name)
        .where(col(Character.owner_id) == person.id, col(Character.system) == system, in_play())
        .order_by(col(Character.id))
        .limit(limit)
    )
    active = None
    if person.active_character_id is not None:
        active = await session.get(Character, person.active_character_id)
        active = active if active is not None and active.retired_at is None else None
    return PlayerCharacters(person.id, person.storyteller, person.locale, list(owned.all()), active)


async def roster_page(
    session: AsyncSession, system: str, statuses: tuple[str, ...] | None, query: str, page: int, size: int
) -> tuple[list[tuple[str, str]], int, int, int]:
    """One page of ``(name, status)`` of the system's characters by name, optionally of some
    statuses and with ``query`` in the name: the rows, the page shown, the number of pages, the total."""
    conditions = [col(Character.system) == system, in_play()]
    if statuses:
        conditions.append(col(Character.status).in_(statuses))
    q = " ".join(query.split()).casefold()[:60]
    if q:
        conditions.append(col(Character.name_key).contains(q, autoescape=True))
    total = int((await session.exec(select(func.count()).select_from(Character).where(*conditions))).one())
    pages = max(1, -(-total // size))
    page = min(max(0, page), pages - 1)
    found = await session.exec(
        select(Character.name, Character.status)
        .where(*conditions)
        .order_by(col(Character.name_key))
        .offset(page * size)
        .limit(size)
    )
    return [(name, status) for name, status in found.all()], page, pages, total


async def retire_character(session: AsyncSession, character: Character, now: datetime) -> None:
    """Retire ``character``: marked, its name freed (``retired_key``), and no longer anyone's active
    character. Its row, pools, rolls, log and audit rows stay, so its history stays verifiable."""
    assert character.id is not None
    character.retired_at = now
    character.updated_at = now
    character.name_key = retired_key(character.name_key, character.id)
    session.add(character)
    await session.exec(
        update(Person)  # type: ignore[call-overload]
        .where(col(Person.active_character_id) == character.id)
        .values(active_character_id=None)
    )
