"""What an adapter's pages show of the vault, read-only: a person's characters and active one, a
character's newest rolls and audit history, one logged roll, the Storyteller log.

Rows come back as the vault's own objects (``Character``, ``RollLog``, ``Audit``, named here for
type hints) to read, never to write: every change goes through a command. Each function takes
``db`` like the other adapter API modules (a unit, a session, or the vault for a unit of its own).
"""

from __future__ import annotations

from datetime import datetime
from typing import Unpack

from sqlalchemy import func
from sqlmodel import col, select

from gateway.features.characters import in_play
from gateway.vault import repo
from gateway.vault.models import Audit, Character, IdentityLink, Person, RollLog, StlogEntry
from gateway.vault.repo import Db, StlogLine, within

__all__ = [
    "Audit",
    "Character",
    "RollLog",
    "StlogEntry",
    "StlogLine",
    "active_character_id",
    "audit_of",
    "channels_rolled_in",
    "character",
    "characters_of",
    "identities_seen",
    "identity_names",
    "keep_active",
    "last_rolled_in",
    "logged_roll",
    "logged_rolls",
    "reviews_of",
    "rolls_of",
    "stlog_after",
    "stlog_characters",
    "stlog_lines",
    "stlog_marks",
    "storyteller_ids",
    "submitted_count",
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


async def logged_rolls(db: Db, public_ids: list[str]) -> dict[str, tuple[RollLog, str | None]]:
    """``logged_roll`` of many in one query, by public id (ids not found are left out)."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(RollLog, Character.name)
            .outerjoin(Character, col(Character.id) == col(RollLog.character_id))
            .where(col(RollLog.public_id).in_(public_ids))
        )
        return {roll.public_id: (roll, name) for roll, name in found.all()}


async def stlog_lines(db: Db, *, limit: int, **filters: Unpack[repo.StlogFilters]) -> list[StlogLine]:
    """The newest ``limit`` Storyteller-log lines, oldest first (``st log``'s), filtered as asked."""
    async with within(db) as unit:
        return await repo.stlog_entries(unit.session, limit=limit, **filters)


# The web's pages (adapters/web): people by name, where they roll, the reviews of their sheets, the
# live log's rows past a mark. Read-only but for ``keep_active``.


async def identity_names(db: Db, keys: list[str]) -> dict[str, str]:
    """The display names of these identities as last seen (keys never seen are left out)."""
    async with within(db) as unit:
        found = await unit.session.exec(select(IdentityLink).where(col(IdentityLink.key).in_(keys)))
        return {link.key: link.display_name for link in found.all()}


async def identities_seen(db: Db, limit: int, *, leave_out: str = "web") -> list[tuple[str, str]]:
    """(key, display name) of the identities met, newest first, those of ``leave_out`` left out."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(IdentityLink.key, IdentityLink.display_name)
            .where(col(IdentityLink.platform) != leave_out)
            .order_by(col(IdentityLink.created_at).desc())
            .limit(limit)
        )
        return [(key, name) for key, name in found.all()]


async def keep_active(db: Db, person_id: int, before: int | None) -> int | None:
    """Puts the person's active character back to ``before``; the one it replaced (None: unchanged)."""
    async with within(db) as unit:
        person = await unit.session.get(Person, person_id)
        if person is None or person.active_character_id == before:
            return None
        replaced = person.active_character_id
        person.active_character_id = before
        unit.session.add(person)
        return replaced


async def channels_rolled_in(db: Db, person_id: int, system: str, limit: int) -> list[str]:
    """The channel keys where the person rolled in ``system``, newest first, web channels left out."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(RollLog.channel_key)
            .where(
                col(RollLog.person_id) == person_id,
                col(RollLog.system) == system,
                col(RollLog.channel_key).not_like("web:%"),
            )
            .group_by(col(RollLog.channel_key))
            .order_by(func.max(RollLog.id).desc())
            .limit(limit)
        )
        return list(found.all())


async def last_rolled_in(db: Db, person_id: int) -> tuple[str, str, str | None, str | None] | None:
    """Where the person last rolled outside the web: (channel key, identity key, that identity's
    display name, the person's language), or None."""
    async with within(db) as unit:
        session = unit.session
        last = (
            await session.exec(
                select(RollLog.channel_key, RollLog.identity_key)
                .where(col(RollLog.person_id) == person_id, col(RollLog.channel_key).not_like("web:%"))
                .order_by(col(RollLog.id).desc())
                .limit(1)
            )
        ).first()
        if last is None:
            return None
        link = await session.get(IdentityLink, last[1])
        person = await session.get(Person, person_id)
        return last[0], last[1], link.display_name if link else None, person.locale if person else None


async def storyteller_ids(db: Db) -> list[int]:
    """The people with the Storyteller role of their own (the vault's owner aside)."""
    async with within(db) as unit:
        found = await unit.session.exec(select(Person.id).where(col(Person.storyteller).is_(True)))
        return [p for p in found.all() if p is not None]


async def reviews_of(
    db: Db, person_id: int, since: datetime, limit: int
) -> list[tuple[str, int, str, datetime]]:
    """(audit action, character id, name, when) of the approvals and unapprovals of the person's
    characters since ``since``, newest first."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(Audit.action, Audit.character_id, Character.name, Audit.created_at)
            .join(Character, col(Character.id) == col(Audit.character_id))
            .where(
                col(Character.owner_id) == person_id,
                col(Audit.created_at) >= since,
                col(Audit.action).like("%approve"),
            )
            .order_by(col(Audit.id).desc())
            .limit(limit)
        )
        return [(a, c, n, t) for a, c, n, t in found.all() if c is not None]


async def submitted_count(db: Db) -> int:
    """Sheets submitted and waiting for a Storyteller."""
    async with within(db) as unit:
        found = await unit.session.exec(
            select(func.count())
            .select_from(Character)
            .where(col(Character.status) == "submitted", col(Character.retired_at).is_(None))
        )
        return int(found.one())


async def stlog_marks(db: Db) -> tuple[int, int]:
    """The newest roll-log and Storyteller-log row ids (0 for none)."""
    async with within(db) as unit:
        roll = (await unit.session.exec(select(func.max(RollLog.id)))).one()
        entry = (await unit.session.exec(select(func.max(StlogEntry.id)))).one()
        return int(roll or 0), int(entry or 0)


async def stlog_after(
    db: Db, roll_after: int, entry_after: int, limit: int
) -> tuple[list[tuple[RollLog, str | None]], list[StlogEntry]]:
    """The Storyteller log's rows past these ids, oldest first: rolls with their character's name,
    and the other entries."""
    async with within(db) as unit:
        rolls = (
            await unit.session.exec(
                select(RollLog, Character.name)
                .outerjoin(Character, col(Character.id) == col(RollLog.character_id))
                .where(col(RollLog.id) > roll_after, col(RollLog.stlog_kind).is_not(None))
                .order_by(col(RollLog.id))
                .limit(limit)
            )
        ).all()
        entries = (
            await unit.session.exec(
                select(StlogEntry)
                .where(col(StlogEntry.id) > entry_after)
                .order_by(col(StlogEntry.id))
                .limit(limit)
            )
        ).all()
        return [(r, n) for r, n in rolls], list(entries)


async def stlog_characters(db: Db, rows: int) -> list[tuple[int, str, str]]:
    """(id, name, system) of the characters in the newest ``rows`` rolls and the newest ``rows``
    other lines of the Storyteller log, by name: the log page's character filter."""
    async with within(db) as unit:
        session = unit.session
        rolled = await session.exec(
            select(RollLog.character_id)
            .where(col(RollLog.stlog_kind).is_not(None))
            .order_by(col(RollLog.id).desc())
            .limit(rows)
        )
        written = await session.exec(
            select(StlogEntry.character_id).order_by(col(StlogEntry.id).desc()).limit(rows)
        )
        ids = {i for i in [*rolled.all(), *written.all()] if i is not None}
        if not ids:
            return []
        found = await session.exec(
            select(Character.id, Character.name, Character.system).where(col(Character.id).in_(ids))
        )
        return sorted(
            ((i, n, s) for i, n, s in found.all() if i is not None), key=lambda c: (c[1].casefold(), c[2])
        )
