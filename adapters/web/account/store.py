"""The vault's side of signing in: links, sessions, who a session is.

Every function is one short unit of work on the vault, so any gateway process answers any browser.
A session is found by its token's hash; ``seen_at`` is moved forward at most every ``TOUCH`` so that
a busy page does not write on every request.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.web.account.tokens import digest, new_token
from gateway.vault import Vault
from gateway.vault.models import IdentityLink, WebLink, WebSession

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


async def issue_link(session: AsyncSession, identity_key: str, now: datetime, minutes: int) -> str:
    """A new sign-in link's token for ``identity_key`` (inside the ``web`` command's unit)."""
    token = new_token()
    session.add(
        WebLink(
            token_hash=digest(token),
            identity_key=identity_key,
            expires_at=now + timedelta(minutes=minutes),
            created_at=now,
        )
    )
    return token


async def redeem(vault: Vault, token: str, now: datetime) -> str | None:
    """The identity a link signs in, marking it used; None for an unknown, used or expired link.
    One conditional update: two tabs opening one link at once sign in once."""
    hashed = digest(token)
    async with vault.transaction() as session:
        taken = await session.exec(  # type: ignore[call-overload]
            update(WebLink)
            .where(
                col(WebLink.token_hash) == hashed,
                col(WebLink.used_at).is_(None),
                col(WebLink.expires_at) > now,
            )
            .values(used_at=now)
        )
        if taken.rowcount != 1:
            return None
        return (
            await session.exec(select(WebLink.identity_key).where(col(WebLink.token_hash) == hashed))
        ).one()


async def open_session(vault: Vault, identity_key: str, agent: str, now: datetime) -> str:
    """A new session for ``identity_key``: the token for the cookie (only its hash is kept)."""
    token = new_token()
    async with vault.transaction() as session:
        session.add(
            WebSession(
                token_hash=digest(token),
                identity_key=identity_key,
                agent=agent[:200],
                created_at=now,
                seen_at=now,
            )
        )
    return token


async def signed_in(vault: Vault, token: str, now: datetime, days: int) -> Signed | None:
    """The session of a cookie's token, if it is live; its ``seen_at`` moves forward (at most every
    ``TOUCH``). An expired session's row is deleted."""
    async with vault.transaction() as session:
        found = (
            await session.exec(
                select(WebSession, IdentityLink)
                .join(IdentityLink, col(IdentityLink.key) == col(WebSession.identity_key))
                .where(col(WebSession.token_hash) == digest(token))
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


async def _person_keys(session: AsyncSession, person_id: int) -> list[str]:
    found = await session.exec(select(IdentityLink.key).where(col(IdentityLink.person_id) == person_id))
    return list(found.all())


async def sessions_of(vault: Vault, person_id: int) -> list[WebSession]:
    """The person's sessions (every identity linked to it), newest use first."""
    async with vault.transaction() as session:
        keys = await _person_keys(session, person_id)
        found = await session.exec(
            select(WebSession)
            .where(col(WebSession.identity_key).in_(keys))
            .order_by(col(WebSession.seen_at).desc())
        )
        return list(found.all())


async def revoke(vault: Vault, person_id: int, session_id: int) -> bool:
    """End one of the person's sessions; False when it is not theirs (or gone already)."""
    async with vault.transaction() as session:
        keys = await _person_keys(session, person_id)
        gone = await session.exec(  # type: ignore[call-overload]
            delete(WebSession).where(col(WebSession.id) == session_id, col(WebSession.identity_key).in_(keys))
        )
        return bool(gone.rowcount == 1)


async def end_all(session: AsyncSession, person_id: int) -> int:
    """``web logout``: every session of the person ends (inside the command's unit); how many."""
    keys = await _person_keys(session, person_id)
    gone = await session.exec(delete(WebSession).where(col(WebSession.identity_key).in_(keys)))  # type: ignore[call-overload]
    return int(gone.rowcount or 0)


async def end_one(vault: Vault, session_id: int) -> None:
    async with vault.transaction() as session:
        await session.exec(delete(WebSession).where(col(WebSession.id) == session_id))  # type: ignore[call-overload]
