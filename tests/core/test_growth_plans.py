"""Read commands stay flat as the vault grows (issue 22): each one's queries use an index that hands
the rows over in the order asked, so none reads or sorts a character's (or the vault's) whole log.

The commands run through the router on a vault built as ``tests.bench.growth`` builds them; every
SELECT they send is captured and explained with its own parameters (SQLite ``EXPLAIN QUERY PLAN``;
PostgreSQL ``EXPLAIN`` with sequential scans and sorts off, so that an index that answers the query in
its order is chosen on a small table, where a scan or a sort would cost less)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, insert, text
from sqlalchemy.engine import Connection
from sqlmodel import col, select

from gateway.features import records
from gateway.features.characters import name_key
from gateway.testing import Chat, Clock, start_chat
from gateway.vault import Vault, repo
from gateway.vault.models import Character, RollLog, StlogEntry
from gateway.vault.name_search import TRIGRAM_INDEX, TRIGRAM_TABLE
from tests.bench.growth import NAME, Built, build, character_name

ROLLS = 3000
LOGS = ("roll_log", "stlog", "audit")  # tables that grow with play: never scanned, never sorted whole
PLAYER: dict[str, Any] = {"platform": "http", "as_": "player", "channel": "growth"}
ST: dict[str, Any] = {"platform": "console", "as_": "vera", "st": True}


@dataclass
class Grown:
    chat: Chat
    built: Built
    dialect: str
    statements: list[tuple[str, Any]]


@asynccontextmanager
async def growing(vault_url: str, characters: int = 0) -> AsyncIterator[Grown]:
    """A vault built as ``tests.bench.growth`` builds it, with ``characters`` more Nightcap characters
    (named as the benchmark names them: a few Vances among them), and a chat on it."""
    clock = Clock()
    built = await build(vault_url, ROLLS, now=clock.now)
    if characters:
        await add_characters(vault_url, built.characters, characters, clock.now)
    chat = await start_chat(vault_url)
    chat.clock.now = clock.now
    statements: list[tuple[str, Any]] = []

    def seen(conn: Connection, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    engine = chat.services.vault.engine.sync_engine
    event.listen(engine, "before_cursor_execute", seen)
    try:
        yield Grown(chat, built, chat.services.vault.dialect, statements)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
        await chat.stop()


async def add_characters(vault_url: str, after: int, count: int, now: datetime) -> None:
    rows = [
        {
            "id": i,
            "owner_id": 2,
            "system": "nightcap",
            "name": (name := character_name(i, after + count)),
            "name_key": name_key(name),
            "status": "approved",
            "sheet": {},
            "created_at": now,
            "updated_at": now,
        }
        for i in range(after + 1, after + count + 1)
    ]
    vault = Vault(vault_url)
    try:
        async with vault.engine.begin() as conn:
            await conn.execute(insert(Character), rows)
            if vault.dialect == "postgresql":
                await conn.execute(
                    text("SELECT setval(pg_get_serial_sequence('character', 'id'), :n)"), {"n": after + count}
                )
                await conn.execute(text("ANALYZE character"))
    finally:
        await vault.dispose()


@pytest.fixture
async def grown(vault_url: str) -> AsyncIterator[Grown]:
    async with growing(vault_url) as grown:
        yield grown


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
    return await explained(grown, case.off)


async def explained(grown: Grown, off: tuple[str, ...]) -> dict[str, list[str]]:
    """The plan of every SELECT in ``grown.statements`` that reads a table, by table."""
    found: dict[str, list[str]] = {}
    async with grown.chat.services.vault.engine.connect() as conn:
        for statement, parameters in list(grown.statements):
            tables = set(re.findall(r'\b(?:FROM|JOIN)\s+"?(\w+)"?', statement))
            if not tables:
                continue
            if grown.dialect == "postgresql":
                # Whether an index answers the query in its order: on a small table the planner
                # may rather scan it, or walk the time index and sort ties, as it should there.
                for setting in off:
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


SEARCHED = 10_000  # characters: enough that PostgreSQL's planner prefers the trigram index


async def test_st_search_uses_the_trigram_index_from_three_letters(vault_url: str) -> None:
    """``st search vance`` over 10k characters looks the names up in the trigram index (SQLite: the
    FTS5 table first, then each character by its id; PostgreSQL: the GIN index, by the planner's own
    choice); ``st search va`` has no trigram and reads the system's names, as before."""
    async with growing(vault_url, SEARCHED) as grown:
        trigram = await plans(grown, "st search vance", Case(ST, {}, ()))
        short = await plans(grown, "st search va", Case(ST, {}, ()))
        found = (await grown.chat.one("st search vance", **ST)).text
    assert found.startswith("Characters matching 'vance' (5): ") and "Mira Vance" in found, found
    if grown.dialect == "sqlite":
        [plan] = trigram[TRIGRAM_TABLE]
        assert f"SCAN {TRIGRAM_TABLE} VIRTUAL TABLE INDEX 0:M" in plan, plan  # M: a MATCH of the index
        assert "SEARCH character USING INTEGER PRIMARY KEY" in plan, plan
        by_name = unique("sqlite", "character", "system_name_key")
        assert TRIGRAM_TABLE not in short and any(by_name in plan for plan in short["character"]), short
    else:
        assert any(TRIGRAM_INDEX in plan for plan in trigram["character"]), trigram
        assert not any(TRIGRAM_INDEX in plan for plan in short["character"]), short


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


async def test_the_web_pages_read_the_logs_through_their_indexes(grown: Grown) -> None:
    """The signed-in pages that show the logs (``gateway.features.records``, as their handlers call it): a
    player's sheet with the character's newest rolls, a Storyteller's profile with its audit history,
    the Storyteller log page, whole and of one character since a time."""
    vault, dialect = grown.chat.services.vault, grown.dialect
    history = {"ix_audit_character_history"} | ({"ix_audit_character_id"} if dialect == "sqlite" else set())
    since = grown.chat.clock.now - timedelta(hours=6)
    reads = {
        "sheet": (records.rolls_of(vault, 1, 50), {"roll_log": {"ix_roll_log_character_created"}}),
        "profile": (records.audit_of(vault, 1, 50), {"audit": history}),
        "log": (
            records.stlog_lines(vault, limit=100),
            {"roll_log": {"ix_roll_log_created_at"}, "stlog": {"ix_stlog_created_at"}},
        ),
        "log of one": (
            records.stlog_lines(vault, character_id=1, since=since, limit=100),
            {"roll_log": {"ix_roll_log_character_created"}, "stlog": {"ix_stlog_character_created"}},
        ),
        # The kind and platform filters are the query's: the same walk newest first, filtered on the way.
        "log of rolls on one platform": (
            records.stlog_lines(vault, limit=100, rolls_only=True, platform="bench"),
            {"roll_log": {"ix_roll_log_created_at"}, "stlog": {"ix_stlog_created_at"}},
        ),
    }
    for page, (read, indexes) in reads.items():
        grown.statements.clear()
        assert await read, page  # each shows rows on this vault
        found = await explained(grown, WHOLE_ORDER if page in ("sheet", "log of one") else IN_ORDER)
        for table, wanted in indexes.items():
            assert any(index in plan for plan in found.get(table, []) for index in wanted), (page, found)
        for table in LOGS:
            for plan in found.get(table, []):
                assert problems(dialect, table, plan) == [], (page, table, plan)
