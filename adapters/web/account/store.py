"""The adapter's side of signing in: it makes the tokens and hashes them; the rows and their queries
are the core's (``gateway.features.web_sessions``), which sees only the hashes.

Every function is one short unit of work on the vault (or runs in the ``web`` command's), so any
gateway process answers any browser.
"""

from __future__ import annotations

from datetime import datetime

from adapters.web.account.tokens import digest, new_token
from gateway.features import web_sessions
from gateway.features.web_sessions import Db, SessionInfo, Signed

__all__ = ["SessionInfo", "Signed"]  # the core's answers, for the pages' type hints


async def issue_link(db: Db, identity_key: str, now: datetime, minutes: int) -> str:
    """A new sign-in link's token for ``identity_key`` (inside the ``web`` command's unit); the
    identity's earlier links are cancelled."""
    token = new_token()
    await web_sessions.issue_link(db, identity_key, digest(token), now, minutes)
    return token


async def link_is_live(db: Db, token: str, now: datetime) -> bool:
    return await web_sessions.link_is_live(db, digest(token), now)


async def redeem(db: Db, token: str, now: datetime) -> str | None:
    """The identity a link signs in, marking it used; None for an unknown, used or expired link."""
    return await web_sessions.redeem(db, digest(token), now)


async def open_session(db: Db, identity_key: str, agent: str, now: datetime) -> str:
    """A new session for ``identity_key``: the token for the cookie (only its hash is kept)."""
    token = new_token()
    await web_sessions.open_session(db, identity_key, digest(token), agent, now)
    return token


async def signed_in(db: Db, token: str, now: datetime, days: int) -> Signed | None:
    """The session of a cookie's token, if it is live."""
    return await web_sessions.signed_in(db, digest(token), now, days)


# Those that take no token are the core's as they are.
sessions_of = web_sessions.sessions_of
revoke = web_sessions.revoke
end_all = web_sessions.end_all
end_one = web_sessions.end_one
