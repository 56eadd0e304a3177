"""The web's sign-in rows for adapters: one-time sign-in links and browser sessions
(``WebLink``, ``WebSession``) and who a session is.

Only token hashes reach this module (the adapter makes the tokens and hashes them), so the vault
holds nothing that signs anybody in. Each function takes ``db`` like the other adapter API modules:
the caller's unit of work or session (the ``web`` command's), or the vault for a unit of its own.
A session's ``seen_at`` moves forward at most every ``TOUCH`` so a busy page does not write on
every request.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlmodel import col, select

from gateway.vault.models import IdentityLink, WebLink, WebSession
from gateway.vault.repo import Db, within
from gateway.vault.unit import Unit

TOUCH = timedelta(minutes=5)


@dataclass(frozen=True)
class Signed:
    """Who a request's session is: the session row's id and the identity it acts as."""

    session_id: int
    identity_key: str
    platform: str
    id: str
    display_name: str
    person_id: int


@dataclass(frozen=True)
class SessionInfo:
    """One of a person's browser sessions, as the sessions page lists it."""

    id: int
    identity_key: str
    agent: str
    created_at: datetime
    seen_at: datetime


async def issue_link(db: Db, identity_key: str, token_hash: str, now: datetime, minutes: int) -> None:
    """A new sign-in link for ``identity_key``; it cancels the identity's earlier ones (used or
    not): one live link per identity."""
    async with within(db) as unit:
        await unit.session.exec(delete(WebLink).where(col(WebLink.identity_key) == identity_key))  # type: ignore[call-overload]
        unit.session.add(
            WebLink(
                token_hash=token_hash,
                identity_key=identity_key,
                expires_at=now + timedelta(minutes=minutes),
                created_at=now,
            )
        )


async def link_is_live(db: Db, token_hash: str, now: datetime) -> bool:
    """Whether the link is known, unused and unexpired (reading it spends nothing)."""
    async with within(db) as unit:
        link = await unit.session.get(WebLink, token_hash)
        return link is not None and link.used_at is None and link.expires_at > now


async def redeem(db: Db, token_hash: str, now: datetime) -> str | None:
    """The identity a link signs in, marking it used; None for an unknown, used or expired link.
    One conditional update: two tabs opening one link at once sign in once."""
    async with within(db) as unit:
        taken = await unit.session.exec(  # type: ignore[call-overload]
            update(WebLink)
            .where(
                col(WebLink.token_hash) == token_hash,
                col(WebLink.used_at).is_(None),
                col(WebLink.expires_at) > now,
            )
            .values(used_at=now)
        )
        if taken.rowcount != 1:
            return None
        found = await unit.session.exec(
            select(WebLink.identity_key).where(col(WebLink.token_hash) == token_hash)
        )
        return found.one()


async def open_session(db: Db, identity_key: str, token_hash: str, agent: str, now: datetime) -> None:
    """A new session for ``identity_key``, known by its token's hash."""
    async with within(db) as unit:
        unit.session.add(
            WebSession(
                token_hash=token_hash,
                identity_key=identity_key,
                agent=agent[:200],
                created_at=now,
                seen_at=now,
            )
        )


async def signed_in(db: Db, token_hash: str, now: datetime, days: int) -> Signed | None:
    """The session of a token's hash, if it is live; its ``seen_at`` moves forward (at most every
    ``TOUCH``). An expired session's row is deleted."""
    async with within(db) as unit:
        session = unit.session
        found = (
            await session.exec(
                select(WebSession, IdentityLink)
                .join(IdentityLink, col(IdentityLink.key) == col(WebSession.identity_key))
                .where(col(WebSession.token_hash) == token_hash)
            )
        ).first()
        if found is None:
            return None
        row, link = found
        if row.seen_at < now - timedelta(days=days):
            await session.delete(row)
            return None
        if row.seen_at < now - TOUCH:
            row.seen_at = now
            session.add(row)
        platform, _, platform_id = link.key.partition(":")
        assert row.id is not None
        return Signed(row.id, link.key, platform, platform_id, link.display_name, link.person_id)


async def _person_keys(unit: Unit, person_id: int) -> list[str]:
    found = await unit.session.exec(select(IdentityLink.key).where(col(IdentityLink.person_id) == person_id))
    return list(found.all())


async def sessions_of(db: Db, person_id: int) -> list[SessionInfo]:
    """The person's sessions (every identity linked to it), newest use first."""
    async with within(db) as unit:
        keys = await _person_keys(unit, person_id)
        found = await unit.session.exec(
            select(WebSession)
            .where(col(WebSession.identity_key).in_(keys))
            .order_by(col(WebSession.seen_at).desc())
        )
        return [
            SessionInfo(row.id, row.identity_key, row.agent, row.created_at, row.seen_at)
            for row in found.all()
            if row.id is not None
        ]


async def revoke(db: Db, person_id: int, session_id: int) -> bool:
    """End one of the person's sessions; False when it is not theirs (or gone already)."""
    async with within(db) as unit:
        keys = await _person_keys(unit, person_id)
        gone = await unit.session.exec(  # type: ignore[call-overload]
            delete(WebSession).where(col(WebSession.id) == session_id, col(WebSession.identity_key).in_(keys))
        )
        return bool(gone.rowcount == 1)


async def end_all(db: Db, person_id: int) -> int:
    """``web logout``: every session of the person ends; how many did."""
    async with within(db) as unit:
        keys = await _person_keys(unit, person_id)
        gone = await unit.session.exec(delete(WebSession).where(col(WebSession.identity_key).in_(keys)))  # type: ignore[call-overload]
        return int(gone.rowcount or 0)


async def end_one(db: Db, session_id: int) -> None:
    async with within(db) as unit:
        await unit.session.exec(delete(WebSession).where(col(WebSession.id) == session_id))  # type: ignore[call-overload]
