"""A ``person`` parameter (``gateway.core.params``) read into an identity key, in the command's unit:
``PLATFORM:ID`` as written, or the display name of the one person the gateway has seen by that name
(``st add Mira``). Names are compared as written and case-blind; on SQLite ``lower()`` folds ASCII
only, so a Cyrillic name matches as written or from PostgreSQL."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import func, or_
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.core_messages import say
from gateway.core.errors import UserError
from gateway.core.params import Param
from gateway.vault.models import IdentityLink

SHOWN = 5  # keys named in an ambiguous name's refusal
READ = 50  # identities of one name read at most
WEB = "web"  # web sign-ins: a person is named by the platform they play on


def has_people(params: Sequence[Param]) -> bool:
    return any(p.kind == "person" for p in params)


async def resolve(
    session: AsyncSession, params: Sequence[Param], args: Mapping[str, Any], locale: str
) -> dict[str, Any]:
    """``args`` with each ``person`` value an identity key; a name nobody has, or several people
    have, is refused in ``locale``."""
    out = dict(args)
    for param in params:
        value = out.get(param.name)
        if param.kind == "person" and isinstance(value, str) and value:
            out[param.name] = await identity_key(session, value, locale)
    return out


async def identity_key(session: AsyncSession, word: str, locale: str) -> str:
    """``word`` when it is written ``PLATFORM:ID`` (the command checks the form), else the key of the
    one person seen with that display name (their newest identity off the web)."""
    if ":" in word:
        return word
    name = " ".join(word.split())
    found = await session.exec(
        select(IdentityLink.key, IdentityLink.person_id, IdentityLink.platform)
        .where(
            or_(
                col(IdentityLink.display_name) == name,
                func.lower(col(IdentityLink.display_name)) == name.lower(),
            )
        )
        .order_by(col(IdentityLink.created_at).desc())
        .limit(READ)
    )
    rows = list(found.all())
    people = {person for _, person, _ in rows}
    if not people:
        raise UserError(say(locale, "person.unknown", name=name[:60]))
    played = [key for key, _, platform in rows if platform != WEB] or [key for key, _, _ in rows]
    if len(people) > 1:
        raise UserError(say(locale, "person.ambiguous", name=name[:60], keys=", ".join(played[:SHOWN])))
    return played[0]
