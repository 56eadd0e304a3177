"""The ``macro`` table: a person's macros and a channel's, for one rule system."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import ChannelRow, IdentityLink, Macro

MAX_PER_OWNER = 100  # macros one owner keeps for one rule system


def person_owner(person_id: int) -> str:
    return f"person:{person_id}"


def channel_owner(channel_key: str) -> str:
    return f"channel:{channel_key}"


@dataclass(frozen=True)
class Seen:
    """A macro as one person sees it in one channel: ``chronicle`` when it is the channel's, and
    ``shadows`` when it is their own and hides the channel's macro of the same name."""

    name: str
    body: str
    chronicle: bool
    shadows: bool = False


async def seen(session: AsyncSession, person_id: int, channel_key: str, system: str) -> dict[str, Seen]:
    """The macros of ``system`` this person sees in this channel, by name: their own shadow the
    channel's of the same name."""
    mine, ours = person_owner(person_id), channel_owner(channel_key)
    found = await session.exec(
        select(Macro.owner, Macro.name, Macro.body).where(
            col(Macro.owner).in_([mine, ours]), col(Macro.system) == system
        )
    )
    rows = list(found.all())
    chronicle = {name for owner, name, _ in rows if owner == ours}
    out = {name: Seen(name, body, True) for owner, name, body in rows if owner == ours}
    for owner, name, body in rows:
        if owner == mine:
            out[name] = Seen(name, body, False, shadows=name in chronicle)
    return dict(sorted(out.items()))


async def systems_with(session: AsyncSession, owners: list[str], name: str) -> list[str]:
    """The rule systems in which one of ``owners`` has a macro called ``name``."""
    found = await session.exec(
        select(Macro.system).where(col(Macro.owner).in_(owners), col(Macro.name) == name).distinct()
    )
    return sorted(found.all())


async def get(session: AsyncSession, owner: str, system: str, name: str) -> Macro | None:
    found = await session.exec(
        select(Macro).where(col(Macro.owner) == owner, col(Macro.system) == system, col(Macro.name) == name)
    )
    return found.first()


async def count(session: AsyncSession, owner: str, system: str) -> int:
    found = await session.exec(
        select(func.count()).select_from(Macro).where(col(Macro.owner) == owner, col(Macro.system) == system)
    )
    return int(found.one())


async def put(
    session: AsyncSession, owner: str, system: str, name: str, body: str, now: datetime
) -> str | None:
    """Save the macro; the body it had before, or None for a new one."""
    row = await get(session, owner, system, name)
    if row is None:
        session.add(Macro(owner=owner, system=system, name=name, body=body, created_at=now, updated_at=now))
        await session.flush()
        return None
    old = row.body
    row.body, row.updated_at = body, now
    session.add(row)
    await session.flush()
    return old


async def remove(session: AsyncSession, owner: str, system: str, name: str) -> str | None:
    """Delete the macro; its body, or None when there was none."""
    row = await get(session, owner, system, name)
    if row is None:
        return None
    await session.delete(row)
    await session.flush()
    return row.body


async def merge(session: AsyncSession, old_person: int, new_person: int) -> None:
    """Two persons linked into one: the merged one's macros move to the survivor, except those whose
    name the survivor already uses in that system (the survivor's stay)."""
    old, new = person_owner(old_person), person_owner(new_person)
    taken = set((await session.exec(select(Macro.system, Macro.name).where(col(Macro.owner) == new))).all())
    for row in (await session.exec(select(Macro).where(col(Macro.owner) == old))).all():
        if (row.system, row.name) in taken:
            await session.delete(row)
        else:
            row.owner = new
            session.add(row)
    await session.flush()


async def names_seen(
    session: AsyncSession, identity_key: str, channel_key: str, default_system: str
) -> list[str]:
    """The macro names an identity sees in a channel (of the channel's rule system, else
    ``default_system``), for a platform's menu: [] for an identity never seen."""
    link = await session.get(IdentityLink, identity_key)
    if link is None:
        return []
    channel = await session.get(ChannelRow, channel_key)
    system = (channel.system if channel is not None else None) or default_system
    return list(await seen(session, link.person_id, channel_key, system))
