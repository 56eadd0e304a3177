"""``st search`` through the trigram index (migration 0007, ``gateway.vault.name_search``) finds what
reading every name finds: the same characters in the same order, ``%`` and ``_`` matched literally,
Czech and Russian names, after renames and deletes; and without the index (a SQLite without FTS5, a
PostgreSQL user who may not create pg_trgm) the search still answers, by reading the names."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import event, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import col, delete, select

from gateway.features.characters import characters_in, name_key
from gateway.testing import POSTGRES_URL_VARIABLE, postgres_database, start_chat
from gateway.vault import Vault
from gateway.vault.backup import backup
from gateway.vault.copy import copy_vault
from gateway.vault.migrate import alembic_config, upgrade
from gateway.vault.models import Character, Person, Pool
from gateway.vault.name_search import TRIGRAM_INDEX, TRIGRAM_TABLE
from tests.fuzz.profile import ci_settings
from tests.nightcap.helpers import ok

ST: dict[str, Any] = {"as_": "ana", "st": True}
# Letters that fold (Czech, Russian, ß -> ss), the LIKE wildcards and escape, FTS5 query syntax,
# and what a text written into PostgreSQL's statement must quote.
LETTERS = "abcvanceščřžýáůАБВГабвгЖжёЁß %_/1\"*^(-'\\"


@pytest.fixture
async def vault(vault_url: str) -> AsyncIterator[Vault]:
    migrated = Vault(vault_url)
    await upgrade(migrated)
    async with migrated.transaction() as session:
        session.add(Person(id=1, display_name="owner"))
    yield migrated
    await migrated.dispose()


async def put(vault: Vault, names: list[tuple[str, str]]) -> None:
    """The vault's characters become ``names`` (system, name): every row before is deleted."""
    async with vault.transaction() as session:
        await session.exec(delete(Character))  # type: ignore[call-overload]
        for system, name in names:
            session.add(Character(owner_id=1, system=system, name=name, name_key=name_key(name), sheet={}))


async def search(vault: Vault, system: str, text_: str, limit: int = 200) -> list[str]:
    async with vault.transaction() as session:
        return [c.name_key for c in await characters_in(session, system, name_contains=text_, limit=limit)]


async def read_every_name(vault: Vault, system: str, text_: str, limit: int = 200) -> list[str]:
    """The search as it was before the index: a LIKE over every name of the system."""
    query = (
        select(Character.name_key)
        .where(col(Character.system) == system)
        .where(col(Character.name_key).contains(name_key(text_), autoescape=True))
        .order_by(col(Character.name_key))
        .limit(limit)
    )
    async with vault.transaction() as session:
        return list((await session.exec(query)).all())


async def fts_integrity(vault: Vault) -> None:
    """FTS5's own check that its index is exactly the index of ``character.name_key`` (raises if not)."""
    if vault.dialect == "sqlite":
        async with vault.engine.begin() as conn:
            check = f"INSERT INTO {TRIGRAM_TABLE}({TRIGRAM_TABLE}, rank) VALUES ('integrity-check', 1)"
            await conn.exec_driver_sql(check)


class Sent:
    """The SELECTs a vault sends, while listening."""

    def __init__(self, vault: Vault) -> None:
        self.statements: list[str] = []
        self.engine = vault.engine.sync_engine
        event.listen(self.engine, "before_cursor_execute", self.seen)

    def seen(self, conn: Connection, cursor: Any, statement: str, *_: Any) -> None:
        self.statements.append(statement)

    def close(self) -> None:
        event.remove(self.engine, "before_cursor_execute", self.seen)


def wildcarded(piece: str) -> st.SearchStrategy[str]:
    """``piece`` with one letter made ``%`` or ``_``: a LIKE would match names that do not hold it."""
    return st.tuples(st.integers(0, len(piece) - 1), st.sampled_from("%_")).map(
        lambda at: piece[: at[0]] + at[1] + piece[at[0] + 1 :]
    )


names = st.lists(st.text(LETTERS, min_size=1, max_size=12).filter(str.strip), max_size=25)


def decoy(text_: str) -> str:
    """A name holding every trigram of ``text_`` but (mostly) not the text: them in reverse order."""
    return "|".join(text_[i : i + 3] for i in reversed(range(len(text_) - 2)))


@ci_settings(40)
@given(data=st.data())
async def test_the_index_finds_what_reading_every_name_finds(vault: Vault, data: st.DataObject) -> None:
    here = [name_key(n) for n in data.draw(names, label="nightcap names")]
    pieces = [k[i : i + n] for k in here for i in range(len(k)) for n in (2, 3, 5, 8) if k[i : i + n].strip()]
    texts = data.draw(st.lists(st.sampled_from(pieces), max_size=4), label="pieces") if pieces else []
    texts += [data.draw(wildcarded(piece), label="wildcarded") for piece in texts]
    texts += data.draw(st.lists(st.text(LETTERS, min_size=1, max_size=5).filter(str.strip), max_size=3))
    here += [decoy(name_key(t)) for t in texts if len(name_key(t)) > 3]
    there = data.draw(names, label="decanter names")
    unique = {("nightcap", name_key(n)): n for n in here} | {("decanter", name_key(n)): n for n in there}
    await put(vault, [(system, name) for (system, _), name in unique.items()])
    await fts_integrity(vault)
    keys = [key for (system, key) in unique if system == "nightcap"]
    limit = data.draw(st.sampled_from([200, 3]), label="limit")
    for text_ in texts:
        found = await search(vault, "nightcap", text_, limit)
        assert found == await read_every_name(vault, "nightcap", text_, limit), text_
        holding = sorted(k for k in keys if name_key(text_) in k)
        if len(holding) <= limit:
            assert sorted(found) == holding, text_
        else:
            assert len(found) == limit and set(found) <= set(holding), text_


async def test_wildcards_match_themselves_and_czech_and_russian_names_are_found(vault: Vault) -> None:
    await put(
        vault,
        [
            ("nightcap", "Anna 100% Vance"),
            ("nightcap", "Anna 1000 Vance"),
            ("nightcap", "snake_case_ann"),
            ("nightcap", "snakeXcaseXann"),
            ("nightcap", "Baronka Šťastná"),
            ("nightcap", "Максина Ёлкина"),
            ("decanter", "Mira Vance"),
        ],
    )
    assert await search(vault, "nightcap", "100%") == ["anna 100% vance"]
    assert await search(vault, "nightcap", "0% v") == ["anna 100% vance"]
    assert await search(vault, "nightcap", "e_case") == ["snake_case_ann"]
    assert await search(vault, "nightcap", "_") == ["snake_case_ann"]
    assert await search(vault, "nightcap", "ŠŤASTN") == ["baronka šťastná"]
    assert await search(vault, "nightcap", "ёлк") == ["максина ёлкина"]
    assert await search(vault, "nightcap", "МАКСИНА  Ё") == ["максина ёлкина"]
    assert await search(vault, "nightcap", "vance") == ["anna 100% vance", "anna 1000 vance"]
    assert await search(vault, "nightcap", "vance", limit=1) == ["anna 100% vance"]
    await put(vault, [("nightcap", "Vanessa Prince"), ("nightcap", "Ivance")])  # van, nce: not vance
    assert await search(vault, "nightcap", "vance") == ["ivance"]
    await put(vault, [("nightcap", 'The "Duke" (*^-)'), ("nightcap", "Duke")])
    assert await search(vault, "nightcap", '"duke"') == ['the "duke" (*^-)']
    assert await search(vault, "nightcap", "(*^-)") == ['the "duke" (*^-)']
    assert await search(vault, "nightcap", "duke") == ["duke", 'the "duke" (*^-)']
    await put(vault, [("nightcap", "Baronka d'Havilland"), ("nightcap", "C:\\Vance")])
    assert await search(vault, "nightcap", "d'hav") == ["baronka d'havilland"]
    assert await search(vault, "nightcap", "'") == ["baronka d'havilland"]
    assert await search(vault, "nightcap", ":\\v") == ["c:\\vance"]


async def test_renames_and_deletes_keep_the_index_right(vault_url: str) -> None:
    chat = await start_chat(vault_url)
    try:
        await ok(chat, "char new Mira Vance", "mira")
        await ok(chat, "char new Dorian Vale", "dorian")
        assert "Mira Vance" in (await ok(chat, "st search vance", **ST)).text
        await ok(chat, "char set name Mira Dorn", "mira")
        assert (await ok(chat, "st search vance", **ST)).text == "Characters matching 'vance' (0): none."
        assert "Mira Dorn" in (await ok(chat, "st search dorn", **ST)).text
        vault = chat.services.vault
        async with vault.transaction() as session:
            mira = (await session.exec(select(Character).where(col(Character.name) == "Mira Dorn"))).one()
            await session.exec(delete(Pool).where(col(Pool.character_id) == mira.id))  # type: ignore[call-overload]
            await session.delete(mira)
        assert (await ok(chat, "st search dorn", **ST)).text == "Characters matching 'dorn' (0): none."
        assert "Dorian Vale" in (await ok(chat, "st search vale", **ST)).text
        await fts_integrity(vault)
    finally:
        await chat.stop()


async def test_the_index_is_there_and_used_for_three_letters_or_more(vault: Vault) -> None:
    await put(vault, [("nightcap", "Mira Vance"), ("nightcap", "Ivan")])
    sent = Sent(vault)
    try:
        assert await search(vault, "nightcap", "vance") == ["mira vance"]
        assert await search(vault, "nightcap", "va") == ["ivan", "mira vance"]
        assert await search(vault, "nightcap", "%_v") == []  # letters like the others, to the index
    finally:
        sent.close()
    searches = [s for s in sent.statements if "FROM character" in s]
    if vault.dialect == "sqlite":
        assert [TRIGRAM_TABLE in s for s in searches] == [True, False, True]
        async with vault.engine.connect() as conn:
            sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'character'"
            triggers = set((await conn.exec_driver_sql(sql)).scalars())
        # A later migration that rebuilds ``character`` must create them again.
        assert triggers == {f"{TRIGRAM_TABLE}_ai", f"{TRIGRAM_TABLE}_ad", f"{TRIGRAM_TABLE}_au"}
    else:  # the text is in the statement, so that PostgreSQL plans it for this text (see name_search)
        assert len(searches) == 3 and "LIKE '%vance%'" in searches[0], searches
        async with vault.engine.connect() as conn:
            sql = "SELECT indexname FROM pg_indexes WHERE tablename = 'character'"
            assert TRIGRAM_INDEX in set((await conn.exec_driver_sql(sql)).scalars())


async def test_downgrade_drops_the_index_and_upgrade_indexes_the_characters_there(vault: Vault) -> None:
    await put(vault, [("nightcap", "Mira Vance")])
    cfg = alembic_config()

    def run(connection: Connection, *, down: bool) -> None:
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, "0006_cluster") if down else command.upgrade(cfg, "heads")

    async with vault.engine.connect() as conn:
        await conn.run_sync(run, down=True)
        await conn.commit()
        if vault.dialect == "sqlite":
            sql = f"SELECT count(*) FROM sqlite_master WHERE name LIKE '{TRIGRAM_TABLE}%'"
        else:
            sql = f"SELECT count(*) FROM pg_indexes WHERE indexname = '{TRIGRAM_INDEX}'"
        assert await conn.scalar(text(sql)) == 0
        await conn.execute(  # a character made while the vault was at 0006
            text(
                "INSERT INTO character (owner_id, system, name, name_key, status, sheet, created_at, "
                "updated_at) VALUES (1, 'nightcap', 'Ada Vance', 'ada vance', 'creation', '{}', "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            )
        )
        await conn.commit()
        await conn.run_sync(run, down=False)
        await conn.commit()
    fresh = Vault(vault.url)  # a new process: it looks for the index again
    try:
        await fts_integrity(fresh)
        assert await search(fresh, "nightcap", "vance") == ["ada vance", "mira vance"]
    finally:
        await fresh.dispose()


def deny_virtual_tables(vault: Vault) -> None:
    """Every connection of ``vault`` refuses CREATE VIRTUAL TABLE, as a SQLite without FTS5 would."""

    def authorizer(action: int, *_: Any) -> int:
        return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_CREATE_VTABLE else sqlite3.SQLITE_OK

    @event.listens_for(vault.engine.sync_engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.driver_connection.sqlite.set_authorizer(authorizer)


async def test_without_fts5_the_migration_goes_on_and_search_reads_every_name(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    plain = Vault(sqlite_url)
    deny_virtual_tables(plain)
    with caplog.at_level(logging.WARNING, logger="gateway.vault.migrate"):
        await upgrade(plain)
    await plain.dispose()
    assert any("no FTS5 trigram index" in r.getMessage() for r in caplog.records), caplog.records
    vault = Vault(sqlite_url)
    try:
        async with vault.engine.connect() as conn:
            sql = f"SELECT count(*) FROM sqlite_master WHERE name LIKE '{TRIGRAM_TABLE}%'"
            assert await conn.scalar(text(sql)) == 0
        async with vault.transaction() as session:
            session.add(Person(id=1, display_name="owner"))
        await put(vault, [("nightcap", "Mira Vance"), ("nightcap", "Vance 100%"), ("decanter", "Ada Vance")])
        sent = Sent(vault)
        assert await search(vault, "nightcap", "vance") == ["mira vance", "vance 100%"]
        assert await search(vault, "nightcap", "100%") == ["vance 100%"]
        sent.close()
        assert sent.statements and not any(TRIGRAM_TABLE in s for s in sent.statements)
    finally:
        await vault.dispose()


async def admin(url: str, *statements: str) -> None:
    engine = create_async_engine(url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            for statement in statements:
                await conn.exec_driver_sql(statement)
    finally:
        await engine.dispose()


@pytest.fixture
def pg_without_create() -> Iterator[tuple[str, str]]:
    """A fresh PostgreSQL database and a role that may create tables in it but not extensions (no
    CREATE on the database): the URL and the role, which the test's connections ``SET ROLE`` to."""
    server = os.environ.get(POSTGRES_URL_VARIABLE)
    if not server:
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")
    role = f"gw_nocreate_{uuid.uuid4().hex[:10]}"
    try:
        with postgres_database(server) as url:
            asyncio.run(admin(url, f"CREATE ROLE {role} NOLOGIN", f"GRANT CREATE ON SCHEMA public TO {role}"))
            yield url, role
    finally:  # the database, and what the role owned in it, is dropped by now
        asyncio.run(admin(server, f"DROP ROLE IF EXISTS {role}"))


def as_role(vault: Vault, role: str) -> None:
    @event.listens_for(vault.engine.sync_engine, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute(f"SET ROLE {role}")
        cursor.close()


@pytest.mark.postgres
async def test_without_pg_trgm_the_migration_goes_on_and_search_reads_every_name(
    pg_without_create: tuple[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    url, role = pg_without_create
    vault = Vault(url)
    as_role(vault, role)
    try:
        with caplog.at_level(logging.WARNING, logger="gateway.vault.migrate"):
            await upgrade(vault)
        assert any("cannot create the extension pg_trgm" in r.getMessage() for r in caplog.records)
        async with vault.engine.connect() as conn:
            sql = f"SELECT count(*) FROM pg_indexes WHERE indexname = '{TRIGRAM_INDEX}'"
            assert await conn.scalar(text(sql)) == 0
            version = await conn.scalar(text("SELECT version_num FROM alembic_version"))
        assert version == "0013_character_profile"
        async with vault.transaction() as session:
            session.add(Person(id=1, display_name="owner"))
        await put(vault, [("nightcap", "Mira Vance"), ("nightcap", "Vance 100%"), ("decanter", "Ada Vance")])
        assert await search(vault, "nightcap", "vance") == ["mira vance", "vance 100%"]
        assert await search(vault, "nightcap", "100%") == ["vance 100%"]
    finally:
        await vault.dispose()


async def test_a_copy_and_a_backup_keep_the_index(vault: Vault, tmp_path: Path) -> None:
    await put(vault, [("nightcap", "Mira Vance"), ("nightcap", "Ivan Vančura"), ("decanter", "Ada Vance")])
    target = f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}"
    await copy_vault(vault.url, target)  # the target's triggers index the characters as they arrive
    copied = Vault(target)
    try:
        await fts_integrity(copied)
        assert await search(copied, "nightcap", "vanč") == ["ivan vančura"]
        assert await search(copied, "nightcap", "vance") == ["mira vance"]
    finally:
        await copied.dispose()
    backed = tmp_path / "backup.db"
    backup(tmp_path / "copy.db", backed)
    restored = Vault(f"sqlite+aiosqlite:///{backed}")
    try:
        await fts_integrity(restored)
        assert await search(restored, "nightcap", "vance") == ["mira vance"]
    finally:
        await restored.dispose()
