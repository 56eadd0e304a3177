"""Helpers for Nightcap tests: say-and-expect-success, a finished character in one call, and the
statements the vault runs meanwhile."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import event
from sqlmodel import col, select

from gateway.core.types import Reply
from gateway.testing import Chat
from gateway.vault.models import Audit, Character, OutboxRow, Pool
from gateway.vault.pg_inline import PostgresUnit
from gateway.vault.repo import StlogLine

# Physical 3, Mental 3, Social 2, Spirit 2: 6 points over the base; Adept + Basic: 3 dots.
TRAITS = (("physical", 3), ("mental", 3), ("social", 2), ("spirit", 2))
POWERS = (("Shadow Step", "adept", "physical"), ("Ward", "basic", "spirit"))


async def ok(chat: Chat, text: str, as_: str = "mira", **kw: Any) -> Reply:
    """Say ``text`` and expect exactly one reply without an error."""
    replies = await chat.say(text, as_, **kw)
    assert len(replies) == 1, replies
    assert replies[0].error is None, replies[0].text
    return replies[0]


async def refused(chat: Chat, text: str, as_: str = "mira", **kw: Any) -> str:
    """Say ``text`` and expect exactly one error reply; returns its text."""
    replies = await chat.say(text, as_, **kw)
    assert len(replies) == 1, replies
    assert replies[0].error is not None, replies[0].text
    return replies[0].text


async def build(
    chat: Chat,
    name: str = "Mira",
    as_: str = "mira",
    *,
    traits: tuple[tuple[str, int], ...] = TRAITS,
    powers: tuple[tuple[str, str, str], ...] = POWERS,
    submit: bool = True,
    approve: bool = True,
    st: str = "ana",
    **kw: Any,
) -> None:
    await ok(chat, f"char new {name}", as_, **kw)
    for trait, value in traits:
        await ok(chat, f"trait {trait} {value}", as_, **kw)
    for power, tier, trait in powers:
        await ok(chat, f"power add {power} {tier} {trait}", as_, **kw)
    await ok(chat, "char set origin Mage", as_, **kw)
    if submit:
        await ok(chat, "char submit", as_, **kw)
    if approve:
        await ok(chat, f"st approve {name}", st, st=True)


async def character(chat: Chat, name: str) -> Character:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(Character).where(col(Character.name) == name))
        return found.one()


async def pools(chat: Chat, name: str) -> dict[str, tuple[int, int]]:
    c = await character(chat, name)
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(Pool).where(col(Pool.character_id) == c.id))
        return {p.name: (p.current, p.maximum) for p in found.all()}


async def set_pool(chat: Chat, name: str, pool: str, value: int) -> None:
    await ok(chat, f"st pool {name} {pool} {value}", "ana", st=True)


async def audit_rows(chat: Chat) -> list[Audit]:
    async with chat.services.vault.transaction() as session:
        return list((await session.exec(select(Audit).order_by(col(Audit.id)))).all())


async def outbox_rows(chat: Chat) -> list[OutboxRow]:
    async with chat.services.vault.transaction() as session:
        return list((await session.exec(select(OutboxRow).order_by(col(OutboxRow.id)))).all())


async def stlog_rows(chat: Chat) -> list[StlogLine]:
    return await chat.stlog()


@asynccontextmanager
async def statements(chat: Chat) -> AsyncIterator[list[str]]:
    """Every statement the vault runs meanwhile. On SQLite, from the driver's trace (prepared
    statements run on the SQLite connection itself, below SQLAlchemy's events); on PostgreSQL,
    SQLAlchemy's statements from its events and the unit's own ``Prepared`` ones from
    ``PostgresUnit._run`` (they run on asyncpg's prepared statements, below SQLAlchemy too)."""
    vault = chat.services.vault
    seen: list[str] = []
    if vault.engine.dialect.name == "sqlite":
        _, driver = await vault._sqlite_writer()
        driver.sqlite.set_trace_callback(seen.append)
        try:
            yield seen
        finally:
            driver.sqlite.set_trace_callback(None)
        return

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(statement)

    inline_run = PostgresUnit._run

    async def run_recorded(unit: PostgresUnit, sql: str, call: Any, *args: Any) -> Any:
        if getattr(call, "__name__", "") != "prepare":  # a statement's first run prepares it too
            seen.append(sql)
        return await inline_run(unit, sql, call, *args)

    engine = vault.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    PostgresUnit._run = run_recorded  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        PostgresUnit._run = inline_run  # type: ignore[method-assign]
        event.remove(engine, "before_cursor_execute", record)
