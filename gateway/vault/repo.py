"""Repository functions: the queries the router and plugins share. Each takes the unit of work (or
its session)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypedDict, Unpack, cast

from sqlalchemy import Table, bindparam, case, insert, inspect
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.events import Approved, SheetChanged, StlogWritten
from gateway.core.payloads import stlog_payload
from gateway.core.types import Channel, Identity
from gateway.vault.engine import Vault
from gateway.vault.models import (
    Audit,
    ChannelRow,
    Character,
    IdentityLink,
    OutboxRow,
    Person,
    Pool,
    ProcessedMessage,
    RollLog,
    StlogEntry,
    utcnow,
)
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit, unit_of

# Where a helper runs: the caller's unit of work (or its session), or a unit of its own in a vault.
Db = Unit | AsyncSession | Vault

# The hot path (a roll, its ST log line, its outbox rows) runs prepared statements on the unit; see
# ``gateway.vault.prepared`` for why.
STLOG_INSERT = Prepared(insert(StlogEntry.__table__))  # type: ignore[attr-defined]
OUTBOX_INSERT = Prepared(insert(OutboxRow.__table__))  # type: ignore[attr-defined]


# Look-ups for a first sight, built once (statement construction costs as much as the query).
_IDENTITY_QUERY = (
    select(IdentityLink, Person)
    .join(Person, col(Person.id) == col(IdentityLink.person_id))
    .where(col(IdentityLink.key) == bindparam("key"))
)
_CHANNEL_QUERY = select(ChannelRow).where(col(ChannelRow.key) == bindparam("key"))


_IDENTITY = inspect(IdentityLink).local_table
_PERSON_OF = Prepared(select(_IDENTITY.c.person_id).where(_IDENTITY.c.key == bindparam("key")))
_PROCESSED = cast(Table, inspect(ProcessedMessage).local_table)  # typed FromClause; a model's is a Table
# One statement records a message id or finds it there already (INSERT ... ON CONFLICT DO NOTHING).
_RECORD_MESSAGE = {
    "sqlite": Prepared(sqlite_insert(_PROCESSED).on_conflict_do_nothing()),
    "postgresql": Prepared(postgresql_insert(_PROCESSED).on_conflict_do_nothing()),
}
MESSAGE_ID_MAX = 200
_PROCESSED_ROW = (
    _PROCESSED.c.platform == bindparam("for_platform"),
    _PROCESSED.c.message_id == bindparam("for_id"),
)
_STORE_RESPONSE = Prepared(
    update(_PROCESSED)
    .where(*_PROCESSED_ROW)
    .values(response=bindparam("replies", type_=_PROCESSED.c.response.type))
)
_READ_RESPONSE = Prepared(select(_PROCESSED.c.response).where(*_PROCESSED_ROW))
_ROLL = cast(Table, inspect(RollLog).local_table)  # typed FromClause; a model's is a Table
_ROLL_STLOG = Prepared(
    update(_ROLL)
    .where(_ROLL.c.public_id == bindparam("roll_id"))
    .values(
        text=bindparam("line", type_=_ROLL.c.text.type),
        stlog_kind=bindparam("line_kind", type_=_ROLL.c.stlog_kind.type),
        result=bindparam("final", type_=_ROLL.c.result.type),
    )
)


@asynccontextmanager
async def within(db: Db) -> AsyncIterator[Unit]:
    """The caller's unit (its writes commit with the caller's), or given the vault a unit of its own,
    committed when the block ends."""
    if isinstance(db, Vault):
        async with db.unit() as unit:
            yield unit
    else:
        yield unit_of(db)


async def person_of(unit: Unit, identity_key: str) -> int | None:
    """The person id behind an identity key, if that identity has been seen."""
    row = await unit.first(_PERSON_OF, {"key": identity_key})
    return None if row is None else int(row[0])


def message_key(message_id: str) -> str:
    """The stored form of a message id: itself, or when longer than the column a digest of all of
    it (cutting it would make ids that differ after 200 characters collide)."""
    if len(message_id) <= MESSAGE_ID_MAX:
        return message_id
    return "sha256:" + hashlib.sha256(message_id.encode("utf-8", "surrogatepass")).hexdigest()


async def seen_message(unit: Unit, platform: str, message_id: str, *, now: datetime | None = None) -> bool:
    """Whether this platform message was handled before; records it (in the unit) when it was not.

    Atomic: one ``INSERT ... ON CONFLICT DO NOTHING``. On PostgreSQL a unit recording the same id
    in another process makes this wait until that unit commits (True) or rolls back (False)."""
    record = {"platform": platform, "message_id": message_key(message_id), "created_at": now or utcnow()}
    return await unit.execute(_RECORD_MESSAGE[unit.dialect], record) == 0


@dataclass(frozen=True)
class StoredResponse:
    request: str | None  # a digest of what was asked (``request_digest``), None for older rows
    replies: list[dict[str, Any]]


def request_digest(channel_key: str, text: str) -> str:
    """What identifies a request besides its id: a retry must ask the same thing (Stripe refuses a
    key reused with other parameters rather than answering for the first ones)."""
    return hashlib.sha256(f"{channel_key}\n{text}".encode("utf-8", "surrogatepass")).hexdigest()


async def store_response(
    unit: Unit, platform: str, message_id: str, request: str, replies: list[dict[str, Any]]
) -> None:
    """Keep the replies a recorded message was answered with, for its retries (same unit)."""
    response = {"request": request, "replies": replies}
    await unit.execute(
        _STORE_RESPONSE, {"for_platform": platform, "for_id": message_key(message_id), "replies": response}
    )


async def stored_response(unit: Unit, platform: str, message_id: str) -> StoredResponse:
    """What a handled message was answered with; no replies when none were kept."""
    row = await unit.first(_READ_RESPONSE, {"for_platform": platform, "for_id": message_key(message_id)})
    stored = row[0] if row is not None and isinstance(row[0], dict) else {}
    return StoredResponse(stored.get("request"), list(stored.get("replies") or []))


def _refresh_link(session: AsyncSession, link: IdentityLink, identity: Identity) -> None:
    """Keep the platform's current display name and verification on the identity row."""
    if link.display_name != identity.display_name or link.verified != identity.verified:
        link.display_name, link.verified = identity.display_name, identity.verified
        session.add(link)


async def resolve_identity(session: AsyncSession, identity: Identity) -> tuple[Person, IdentityLink]:
    """The person behind ``identity``, created on first sight."""
    found = (await session.exec(_IDENTITY_QUERY, params={"key": identity.key})).first()  # type: ignore[call-overload]
    if found is not None:
        link, person = found
        _refresh_link(session, link, identity)
        return person, link
    person = Person(display_name=identity.display_name)
    session.add(person)
    await session.flush()
    assert person.id is not None
    link = IdentityLink(
        key=identity.key,
        person_id=person.id,
        platform=identity.platform,
        display_name=identity.display_name,
        verified=identity.verified,
    )
    session.add(link)
    await session.flush()
    return person, link


async def resolve_channel(session: AsyncSession, channel: Channel) -> ChannelRow:
    row = (await session.exec(_CHANNEL_QUERY, params={"key": channel.key})).first()  # type: ignore[call-overload]
    if row is None:
        # "direct" marks a private conversation, so chronicle-wide announcements can skip it.
        row = ChannelRow(
            key=channel.key, platform=channel.platform, settings={"direct": True} if channel.direct else {}
        )
        session.add(row)
        await session.flush()
    return row


async def enqueue(
    db: Db,
    platform: str,
    target: str,
    payload: Mapping[str, Any],
    *,
    now: datetime | None = None,
    due: datetime | None = None,
) -> None:
    """Queue one outbound message in the caller's transaction, or given the vault in a unit of its
    own; for delivery from ``due`` on (default: now). ``payload``: one of ``gateway.core.payloads``, or
    an adapter's own kind for itself."""
    if isinstance(db, Vault):
        async with db.unit() as own:
            return await enqueue(own, platform, target, payload, now=now, due=due)
    when = now or utcnow()
    values = dict(
        platform=platform,
        target=target,
        payload=dict(payload),
        status="pending",
        attempts=0,
        created_at=when,
        next_attempt_at=due or when,
    )
    unit = unit_of(db)
    await unit.execute(OUTBOX_INSERT, values)
    unit.queued.add(platform)


def split_target(target: str) -> tuple[str, str]:
    """``discord:stlog`` -> (``discord``, ``stlog``); ``console`` -> (``console``, ``""``)."""
    platform, _, address = target.partition(":")
    return platform, address


async def write_stlog(
    db: Unit | AsyncSession,
    *,
    targets: list[str],
    person_id: int | None,
    character_id: int | None,
    channel_key: str,
    kind: str,
    text: str,
    result: dict[str, Any],
    now: datetime,
    who: str,
    where: str,
    roll_id: str | None = None,
) -> None:
    """Record a Storyteller-log line and queue it for every target. With ``roll_id`` (a roll logged
    in this unit) the line is stored on that roll's row instead of a row of its own."""
    unit = unit_of(db)
    if roll_id is not None:
        # The roll's row is already dirty in this transaction: no extra page to write at commit.
        await unit.execute(
            _ROLL_STLOG, {"roll_id": roll_id, "line": text, "line_kind": kind, "final": result}
        )
    else:
        unit.record(StlogWritten(kind, text, character_id, channel_key, now.astimezone(UTC).isoformat()))
        await unit.execute(
            STLOG_INSERT,
            dict(
                person_id=person_id,
                character_id=character_id,
                channel_key=channel_key,
                kind=kind,
                text=text,
                result=result,
                created_at=now,
            ),
        )
    await queue_stlog(
        unit, targets=targets, kind=kind, text=text, result=result, now=now, who=who, where=where
    )


async def queue_stlog(
    unit: Unit,
    *,
    targets: list[str],
    kind: str,
    text: str,
    result: dict[str, Any],
    now: datetime,
    who: str,
    where: str,
) -> None:
    """Queue a Storyteller-log line (already recorded) for every configured Storyteller target."""
    payload = stlog_payload(text, stlog_kind=kind, who=who, where=where, result=result)
    for target in targets:
        platform, address = split_target(target)
        await enqueue(unit, platform, address, payload, now=now)


@dataclass(frozen=True)
class StlogLine:
    created_at: datetime
    kind: str
    text: str
    channel_key: str
    character_id: int | None
    result: dict[str, Any]


class StlogFilters(TypedDict, total=False):
    """Which Storyteller-log lines to read: a character's, since a time, of rolls (True) or the other
    lines (False), of one platform's channels."""

    character_id: int | None
    since: datetime | None
    rolls_only: bool | None
    platform: str | None


async def stlog_entries(
    session: AsyncSession, *, limit: int, **filters: Unpack[StlogFilters]
) -> list[StlogLine]:
    """The newest ``limit`` Storyteller-log lines, oldest first: rolls (from the roll log) and the
    other entries together. A line is of a roll when its result has a roll id. Filtered in the
    query, so a narrow filter still shows up to ``limit`` lines."""
    character_id, since = filters.get("character_id"), filters.get("since")
    rolls_only, platform = filters.get("rolls_only"), filters.get("platform")
    events = select(StlogEntry)
    rolls = select(RollLog).where(col(RollLog.stlog_kind).is_not(None))
    if rolls_only is not None:
        of_roll = col(StlogEntry.result)["id"].as_string().is_not(None)
        events = events.where(of_roll if rolls_only else ~of_roll)
    if platform:
        events = events.where(col(StlogEntry.channel_key).startswith(f"{platform}:", autoescape=True))
        rolls = rolls.where(col(RollLog.channel_key).startswith(f"{platform}:", autoescape=True))
    if character_id is not None:
        events = events.where(col(StlogEntry.character_id) == character_id)
        rolls = rolls.where(col(RollLog.character_id) == character_id)
    if since is not None:
        events = events.where(col(StlogEntry.created_at) >= since)
        rolls = rolls.where(col(RollLog.created_at) >= since)
    newest_events = events.order_by(col(StlogEntry.created_at).desc(), col(StlogEntry.id).desc())
    newest_rolls = rolls.order_by(col(RollLog.created_at).desc(), col(RollLog.id).desc())
    lines = [
        (
            e.created_at,
            1,
            e.id or 0,
            StlogLine(e.created_at, e.kind, e.text, e.channel_key, e.character_id, e.result),
        )
        for e in (await session.exec(newest_events.limit(limit))).all()
    ]
    lines += [
        (
            r.created_at,
            0,  # a roll before the entries written in the same instant (a check-in's roll, then the rest)
            r.id or 0,
            StlogLine(
                r.created_at, r.stlog_kind or r.kind, r.text or "", r.channel_key, r.character_id, r.result
            ),
        )
        for r in ([] if rolls_only is False else (await session.exec(newest_rolls.limit(limit))).all())
    ]
    lines.sort(key=lambda line: line[:3])
    return [line for *_, line in lines[-limit:]]


async def audit(
    session: AsyncSession,
    *,
    actor_id: int | None,
    actor_key: str,
    action: str,
    character_id: int | None,
    field_name: str | None,
    old: Any,
    new: Any,
    now: datetime,
) -> None:
    session.add(
        Audit(
            actor_id=actor_id,
            actor_key=actor_key,
            action=action,
            character_id=character_id,
            field_name=field_name,
            old_value=_text(old),
            new_value=_text(new),
            created_at=now,
        )
    )
    if character_id is not None:
        await _record_sheet_change(session, actor_id, action, character_id, field_name, new)


async def _record_sheet_change(
    session: AsyncSession,
    actor_id: int | None,
    action: str,
    character_id: int,
    field_name: str | None,
    new: Any,
) -> None:
    """Every audited edit of a character is a ``SheetChanged`` of the unit (one per character and
    actor, gathering the actions), and setting its status to approved an ``Approved`` too. Recorded
    here, where every plugin's audit rows are written, so no plugin records them itself."""
    unit = unit_of(session)
    for index, event in enumerate(unit.events):
        if isinstance(event, SheetChanged) and (event.character_id, event.actor_id) == (
            character_id,
            actor_id,
        ):
            unit.events[index] = event.merged(action, field_name)
            break
    else:
        character = await session.get(Character, character_id)  # in the session already, as a rule
        if character is None:
            return
        fields = () if field_name is None else (field_name,)
        unit.record(
            SheetChanged(character_id, character.system, character.owner_id, actor_id, (action,), fields)
        )
    if field_name == "status" and new == "approved":
        unit.record(Approved(character_id))


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


async def find_roll(session: AsyncSession, public_id: str) -> RollLog | None:
    found = await session.exec(select(RollLog).where(RollLog.public_id == public_id.casefold().lstrip("#")))
    return found.first()


async def pools_of_many(
    session: AsyncSession, character_ids: list[int]
) -> dict[int, dict[str, tuple[int, int]]]:
    """Every pool's (current, maximum) of each character, in one query (columns: fresh values even
    where the session holds stale rows); a character without pools is left out. Callers keep the
    id list short enough for one statement's parameters (a few hundred)."""
    found = await session.exec(
        select(Pool.character_id, Pool.name, Pool.current, Pool.maximum).where(
            col(Pool.character_id).in_(character_ids)
        )
    )
    pools: dict[int, dict[str, tuple[int, int]]] = {}
    for character_id, name, current, maximum in found.all():
        pools.setdefault(character_id, {})[name] = (int(current), int(maximum))
    return pools


async def spend_pool(session: AsyncSession, character_id: int, name: str, amount: int) -> bool:
    """Atomically take ``amount`` from a pool if it holds that much. False when it does not."""
    stmt = (
        update(Pool)
        .where(col(Pool.character_id) == character_id, col(Pool.name) == name, col(Pool.current) >= amount)
        .values(current=col(Pool.current) - amount)
    )
    result = await session.exec(stmt)  # type: ignore[call-overload]
    return bool(result.rowcount == 1)


_POOL = cast(Table, inspect(Pool).local_table)
_POOL_ROW = (_POOL.c.character_id == bindparam("owner"), _POOL.c.name == bindparam("pool_name"))
_TAKE_POOL = Prepared(
    update(_POOL)
    .where(*_POOL_ROW, _POOL.c.current >= bindparam("amount"))
    .values(current=_POOL.c.current - bindparam("amount"))
)
_POOL_STATE = Prepared(select(_POOL.c.current, _POOL.c.maximum).where(*_POOL_ROW))


async def take_pool(unit: Unit, character_id: int, name: str, amount: int) -> bool:
    """``spend_pool`` as a prepared statement on the unit, for the roll path (no ORM session). A
    ``Pool`` object the unit's session holds keeps its old value: read pools fresh after it."""
    params = {"owner": character_id, "pool_name": name, "amount": amount}
    return await unit.execute(_TAKE_POOL, params) == 1


async def pool_state(unit: Unit, character_id: int, name: str) -> tuple[int, int] | None:
    """A pool's (current, maximum) from the vault, with a prepared statement; None when it has no
    such pool."""
    row = await unit.first(_POOL_STATE, {"owner": character_id, "pool_name": name})
    return None if row is None else (int(row[0]), int(row[1]))


async def pool_current(unit: Unit, character_id: int, name: str) -> int | None:
    """A pool's current value from the vault, with a prepared statement; None when it has no such pool."""
    state = await pool_state(unit, character_id, name)
    return None if state is None else state[0]


async def gain_pool(session: AsyncSession, character_id: int, name: str, amount: int) -> None:
    """Atomically add ``amount`` to a pool, capped at its maximum."""
    stmt = (
        update(Pool)
        .where(col(Pool.character_id) == character_id, col(Pool.name) == name)
        .values(
            current=case(
                (col(Pool.current) + amount > col(Pool.maximum), col(Pool.maximum)),
                else_=col(Pool.current) + amount,
            )
        )
    )
    await session.exec(stmt)  # type: ignore[call-overload]
