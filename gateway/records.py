"""What an adapter's pages show of the vault, read-only: a person's characters and active one, a
character's newest rolls and audit history, one logged roll, the Storyteller log.

Rows come back as the vault's own objects (``Character``, ``RollLog``, ``Audit``, named here for
type hints) to read, never to write: every change goes through a command. Each function takes
``db`` like the other adapter API modules (a unit, a session, or the vault for a unit of its own).
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import col, select

from gateway.characters import in_play
from gateway.vault import repo
from gateway.vault.models import Audit, Character, Person, RollLog
from gateway.vault.repo import Db, StlogLine, within

__all__ = [
    "Audit",
    "Character",
    "RollLog",
    "StlogLine",
    "active_character_id",
    "audit_of",
    "character",
    "characters_of",
    "logged_roll",
    "rolls_of",
    "stlog_lines",
]


async def character(db: Db, character_id: int) -> Character | None:
    """The character with this id, retired or not (the caller decides what it may see)."""
    async with within(db) as unit:
        return await unit.session.get(Character, character_id)


async def characters_of(db: Db, person_id: int, system: str) -> list[Character]:
    """The person's characters in play in ``system``, by name."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(Character)
            .where(
                col(Character.owner_id) == person_id,
                col(Character.system) == system,
                in_play(),
            )
            .order_by(col(Character.name_key))
        )
        return list(found.all())


async def active_character_id(db: Db, person_id: int) -> int | None:
    """The id of the person's active character (``char use``), if any."""
    async with within(db) as unit:
        person = await unit.session.get(Person, person_id)
        return person.active_character_id if person else None


async def rolls_of(db: Db, character_id: int, limit: int) -> list[RollLog]:
    """The character's newest ``limit`` logged rolls, newest first."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(RollLog)
            .where(col(RollLog.character_id) == character_id)
            .order_by(col(RollLog.created_at).desc(), col(RollLog.id).desc())
            .limit(limit)
        )
        return list(found.all())


async def audit_of(db: Db, character_id: int, limit: int) -> list[Audit]:
    """The character's newest ``limit`` audit rows (who changed what), newest first."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(Audit)
            .where(col(Audit.character_id) == character_id)
            .order_by(col(Audit.id).desc())
            .limit(limit)
        )
        return list(found.all())


async def logged_roll(db: Db, public_id: str) -> tuple[RollLog, str | None] | None:
    """The logged roll with this exact public id and its character's name (None without one)."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(RollLog, Character.name)
            .outerjoin(Character, col(Character.id) == col(RollLog.character_id))
            .where(col(RollLog.public_id) == public_id)
        )
        row = found.first()
        return None if row is None else (row[0], row[1])


async def stlog_lines(
    db: Db, *, character_id: int | None = None, since: datetime | None = None, limit: int
) -> list[StlogLine]:
    """The newest ``limit`` Storyteller-log lines, oldest first (``st log``'s)."""
    async with within(db) as unit:
        return await repo.stlog_entries(unit.session, character_id=character_id, since=since, limit=limit)
