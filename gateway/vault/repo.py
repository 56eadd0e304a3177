"""Repository functions: the queries the router and plugins share. Each takes the unit of work's session."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, case, insert
from sqlmodel import col, select, update
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.types import Channel, Identity
from gateway.vault.models import (
    Audit,
    ChannelRow,
    IdentityLink,
    OutboxRow,
    Person,
    Pool,
    RollLog,
    StlogEntry,
    utcnow,
)

# Core inserts built once; the hot path (a roll, its ST log line, its outbox rows) skips the ORM's
# per-object bookkeeping.
STLOG_INSERT = insert(StlogEntry.__table__)  # type: ignore[attr-defined]
OUTBOX_INSERT = insert(OutboxRow.__table__)  # type: ignore[attr-defined]


# Look-ups run for every message, built once (statement construction costs as much as the query).
_IDENTITY_QUERY = (
    select(IdentityLink, Person)
    .join(Person, col(Person.id) == col(IdentityLink.person_id))
    .where(col(IdentityLink.key) == bindparam("key"))
)
_CHANNEL_QUERY = select(ChannelRow).where(col(ChannelRow.key) == bindparam("key"))
# The router's first read: sender, person and channel in one round trip.
_SENDER_QUERY = (
    select(IdentityLink, Person, ChannelRow)
    .join(Person, col(Person.id) == col(IdentityLink.person_id))
    .outerjoin(ChannelRow, col(ChannelRow.key) == bindparam("channel"))
    .where(col(IdentityLink.key) == bindparam("key"))
)


async def resolve_sender(
    session: AsyncSession, identity: Identity, channel: Channel
) -> tuple[Person, IdentityLink, ChannelRow]:
    """``resolve_identity`` and ``resolve_channel`` together, in one query when both exist."""
    params = {"key": identity.key, "channel": channel.key}
    found = (await session.exec(_SENDER_QUERY, params=params)).first()  # type: ignore[call-overload]
    if found is None:
        person, link = await resolve_identity(session, identity)
        return person, link, await resolve_channel(session, channel)
    link, person, row = found
    _refresh_link(session, link, identity)
    return person, link, row if row is not None else await resolve_channel(session, channel)


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
    session: AsyncSession, platform: str, target: str, payload: dict[str, Any], *, now: datetime | None = None
) -> None:
    """Queue one outbound message in the caller's transaction."""
    when = now or utcnow()
    values = dict(
        platform=platform,
        target=target,
        payload=payload,
        status="pending",
        attempts=0,
        created_at=when,
        next_attempt_at=when,
    )
    await session.exec(OUTBOX_INSERT, params=values)  # type: ignore[call-overload]


def split_target(target: str) -> tuple[str, str]:
    """``discord:stlog`` -> (``discord``, ``stlog``); ``console`` -> (``console``, ``""``)."""
    platform, _, address = target.partition(":")
    return platform, address


async def write_stlog(
    session: AsyncSession,
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
) -> None:
    await session.exec(  # type: ignore[call-overload]
        STLOG_INSERT,
        params=dict(
            person_id=person_id,
            character_id=character_id,
            channel_key=channel_key,
            kind=kind,
            text=text,
            result=result,
            created_at=now,
        ),
    )
    payload = {
        "text": text,
        "kind": "stlog",
        "stlog_kind": kind,
        "who": who,
        "where": where,
        "result": result,
    }
    for target in targets:
        platform, address = split_target(target)
        await enqueue(session, platform, address, payload, now=now)


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


def _text(value: Any) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


async def find_roll(session: AsyncSession, public_id: str) -> RollLog | None:
    found = await session.exec(select(RollLog).where(RollLog.public_id == public_id.casefold().lstrip("#")))
    return found.first()


async def spend_pool(session: AsyncSession, character_id: int, name: str, amount: int) -> bool:
    """Atomically take ``amount`` from a pool if it holds that much. False when it does not."""
    stmt = (
        update(Pool)
        .where(col(Pool.character_id) == character_id, col(Pool.name) == name, col(Pool.current) >= amount)
        .values(current=col(Pool.current) - amount)
    )
    result = await session.exec(stmt)  # type: ignore[call-overload]
    return bool(result.rowcount == 1)


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
