"""Read commands stay flat as the vault grows (issue 22): each one's queries use an index that hands
the rows over in the order asked, so none reads or sorts a character's (or the vault's) whole log.

The commands run through the router on a vault built as ``tests.bench.growth`` builds them; every
SELECT they send is captured and explained with its own parameters (SQLite ``EXPLAIN QUERY PLAN``;
PostgreSQL ``EXPLAIN`` with sequential scans and sorts off, so that an index that answers the query in
its order is chosen on a small table, where a scan or a sort would cost less)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlmodel import col, select

from gateway.testing import Chat, Clock, start_chat
from gateway.vault import repo
from gateway.vault.models import RollLog, StlogEntry
from tests.bench.growth import NAME, Built, build

ROLLS = 3000
LOGS = ("roll_log", "stlog", "audit")  # tables that grow with play: never scanned, never sorted whole
PLAYER = {"platform": "http", "as_": "player", "channel": "growth"}
ST = {"platform": "console", "as_": "vera", "st": True}


@dataclass
class Grown:
    chat: Chat
    built: Built
    dialect: str
    statements: list[tuple[str, Any]]


@pytest.fixture
async def grown(vault_url: str) -> AsyncIterator[Grown]:
    clock = Clock()
    built = await build(vault_url, ROLLS, now=clock.now)
    chat = await start_chat(vault_url)
    chat.clock.now = clock.now
    statements: list[tuple[str, Any]] = []

    def seen(conn: Connection, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    engine = chat.services.vault.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    yield Grown(chat, built, chat.services.vault.dialect, statements)
    event.remove(engine, "before_cursor_execute", seen)
    await chat.stop()


# What PostgreSQL's planner may not do when a command is explained (``Case.off``).
IN_ORDER = ("enable_seqscan", "enable_sort")  # the index hands rows over in the order asked ...
WHOLE_ORDER = (*IN_ORDER, "enable_incremental_sort")  # ... the whole order, not the first key only
ANY_INDEX = ("enable_seqscan",)  # a few rows (a player's characters), sorted or not


@dataclass(frozen=True)
class Case:
    who: dict[str, Any]
    indexes: dict[str, set[str]]  # table -> one of these indexes must answer a query on it
    off: tuple[str, ...] = IN_ORDER


async def plans(grown: Grown, line: str, case: Case) -> dict[str, list[str]]:
    """Run ``line``; the plan of every SELECT it sent that reads a table, by table."""
    grown.statements.clear()
    reply = await grown.chat.one(line, **case.who)
    assert reply.error is None, reply.text
    found: dict[str, list[str]] = {}
    async with grown.chat.services.vault.engine.connect() as conn:
        for statement, parameters in list(grown.statements):
            tables = set(re.findall(r'\bFROM\s+"?(\w+)"?', statement))
            if not tables:
                continue
            if grown.dialect == "postgresql":
                # Whether an index answers the query in its order: on a small table the planner
                # may rather scan it, or walk the time index and sort ties, as it should there.
                for setting in case.off:
                    await conn.execute(text(f"SET LOCAL {setting} = off"))
                rows = await conn.exec_driver_sql("EXPLAIN " + statement, parameters)
                plan = "\n".join(str(r[0]) for r in rows)
            else:
                rows = await conn.exec_driver_sql("EXPLAIN QUERY PLAN " + statement, parameters)
                plan = "\n".join(str(r[-1]) for r in rows)
            for name in tables:
                found.setdefault(name, []).append(plan)
        await conn.rollback()
    return found


def unique(dialect: str, table: str, column: str) -> str:
    """The index behind a ``UniqueConstraint`` (SQLite names it by number, PostgreSQL by column)."""
    return {"sqlite": f"sqlite_autoindex_{table}_1", "postgresql": f"{table}_{column}_key"}[dialect]


def expected(dialect: str, built: Built) -> dict[str, Case]:
    """Command line -> who says it and the indexes its queries must use. On PostgreSQL a character's
    log must come in its whole order (character, time, id) from its index; the log's newest lines
    may come by time with their ties ordered (an incremental sort, stopping at the LIMIT)."""
    by_name = unique(dialect, "character", "system_name_key")  # UNIQUE (system, name_key)
    public_id = {unique(dialect, "roll_log", "public_id")}
    newest = {"roll_log": {"ix_roll_log_created_at"}, "stlog": {"ix_stlog_created_at"}}
    character = {
        "roll_log": {"ix_roll_log_character_created"},
        "stlog": {"ix_stlog_character_created"},
        "character": {by_name},
    }
    history = {"ix_audit_character_history"}
    if dialect == "sqlite":  # SQLite's index on character_id ends in the rowid: in id order already
        history.add("ix_audit_character_id")
    return {
        f"verify {built.old_id}": Case(PLAYER, {"roll_log": public_id}),
        f"verify #{built.old_id.upper()}": Case(PLAYER, {"roll_log": public_id}),
        "st log --limit 20": Case(ST, newest),
        "st log --since today": Case(ST, newest),
        f"st log {NAME} --since today": Case(ST, character, WHOLE_ORDER),
        f"st log {NAME}": Case(ST, character, WHOLE_ORDER),
        f"st history {NAME}": Case(ST, {"audit": history, "character": {by_name}}, WHOLE_ORDER),
        "st search vance": Case(ST, {"character": {by_name}}),
        "st roster": Case(ST, {"character": {by_name}}),
        "char list": Case(PLAYER, {"character": {"ix_character_owner_id"}}, ANY_INDEX),
    }


def problems(dialect: str, table: str, plan: str) -> list[str]:
    """What makes a plan on a log table grow with the log: a full scan, or a sort of what it reads."""
    if dialect == "sqlite":
        bad = [f"SCAN {table}\n", "USE TEMP B-TREE FOR ORDER BY"]
        return [b.strip() for b in bad if b in plan + "\n"]
    # A Sort node sorts every row below it; an Incremental Sort only orders ties of what an index
    # hands over already sorted (created_at), and stops at the LIMIT with it.
    nodes = [line.strip(" ->") for line in plan.splitlines()]
    return [node for node in nodes if re.match(r"(Seq Scan on|Sort\s+\()", node)]


async def test_every_read_command_uses_its_index(grown: Grown) -> None:
    for line, case in expected(grown.dialect, grown.built).items():
        found = await plans(grown, line, case)
        for table, wanted in case.indexes.items():
            assert table in found, (line, table, found)
            used = [plan for plan in found[table] if any(index in plan for index in wanted)]
            assert used, (line, table, wanted, found[table])
        for table in LOGS:
            for plan in found.get(table, []):
                assert problems(grown.dialect, table, plan) == [], (line, table, plan)


async def test_a_characters_log_is_the_newest_lines_in_order(grown: Grown) -> None:
    """The indexed queries give what the whole log, sorted, gives: the newest 20 of the character's
    rolls and entries, rolls before entries of the same instant, oldest first."""
    async with grown.chat.services.vault.transaction() as session:
        rolls = (await session.exec(select(RollLog).where(col(RollLog.character_id) == 1))).all()
        events = (await session.exec(select(StlogEntry).where(col(StlogEntry.character_id) == 1))).all()
        lines = sorted(
            [(r.created_at, 0, r.id or 0, r.text or "") for r in rolls if r.stlog_kind is not None]
            + [(e.created_at, 1, e.id or 0, e.text) for e in events]
        )
        assert len(lines) > 40  # enough that the newest 20 are a choice
        since = lines[-30][0]
        newest = await repo.stlog_entries(session, character_id=1, limit=20)
        recent = await repo.stlog_entries(session, character_id=1, since=since, limit=200)
    assert [line.text for line in newest] == [t for *_, t in lines[-20:]]
    assert [line.text for line in recent] == [t for when, _, _, t in lines if when >= since]
