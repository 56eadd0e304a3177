"""``gateway db copy``: a vault with every kind of row, SQLite -> PostgreSQL -> a fresh SQLite, gives
the same answers to the same commands on each; the refusals (non-empty target, outdated source, the
same vault, an unreachable target) say one line, exit 2 and write nothing."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import JSON, Boolean, Column, Integer, MetaData, Table, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import SQLModel

from gateway.core.errors import DeliveryFailed, RetryLater
from gateway.delivery.leases import Leases
from gateway.features import profiles
from gateway.features.characters import find_character
from gateway.testing import POSTGRES_URL_VARIABLE, Chat, FakeAdapter, postgres_database, start_chat
from gateway.vault import Vault
from gateway.vault import copy as copy_module
from gateway.vault.copy import CopyMismatch, CopyRefused, copy_vault
from gateway.vault.migrate import alembic_config, upgrade
from gateway.vault.models import KeyValue, ProcessRow, RateBucket, SceneState, WebLink, WebSession
from gateway.vault.name_search import is_index_object
from tests.nightcap.helpers import build

ROOT = Path(__file__).resolve().parents[2]
GATEWAY = [sys.executable, "-m", "gateway"]
SYSTEMS = {"nightcap": "nc", "decanter": "dec", "dramatic": "dra", "nightwanderers": "nw", "pravidla": "pr"}
HEROES = {"nc": "Mira", "dec": "Corvin", "dra": "Tessaly", "nw": "Максина", "pr": "Baronka d'Havilland"}
TRAITS: dict[str, dict[str, int]] = {
    "dec": {"strength": 3, "wits": 2},
    "dra": {"dexterity": 3, "perception": 2},
    "nw": {"persuasion": 2},
    "pr": {"sarm": 3},
}
ROLLS = {
    "nc": ("roll physical wp", [7, 7, 7]),
    "dec": ("roll 3+2 dc 4", [9, 5, 10, 1, 7]),
    "dra": ("roll 6 diff 7", [9, 5, 10, 1, 7, 3]),
    "nw": ("roll убеждение diff 4", [1, 5]),
    "pr": ("roll šarm tn 4", [1, 5, 6]),
}


JSON_TEXT = [
    f"SELECT {columns} FROM {table} ORDER BY 1"
    for table, columns in {
        "roll_log": "id, dice, result",
        "character": "id, sheet",
        "outbox": "id, payload",
        "processed_message": "message_id, response",
        "kv": "key, value",
        "stlog": "id, result",
        "channel": "key, settings",
        "scene_state": "kind, data",
        "gateway_process": "id, state",
    }.items()
]


def gateway_cli(*args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GATEWAY_NO_VENV": "1", "PYTHONPATH": str(ROOT)}
    env.pop("GATEWAY_VAULT_URL", None)
    config_args = ["--config", str(config)] if config else []
    return subprocess.run(
        [*GATEWAY, *config_args, "db", *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=120
    )


def refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert "Traceback" not in done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


@pytest.fixture
def pg_url() -> Iterator[str]:
    if not os.environ.get(POSTGRES_URL_VARIABLE):
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")
    with postgres_database() as url:
        yield url


def sqlite_file(url: str) -> Path:
    return Path(url.split(":///", 1)[1])


# ---------------------------------------------------------------- a vault with every kind of row


async def ok(chat: Chat, line: str, as_: str = "mira", **kw: Any) -> Any:
    replies = await chat.say(line, as_, **kw)
    assert replies and all(r.error is None for r in replies), (line, replies)
    return replies[-1]


async def settled(chat: Chat, timeout: float = 30.0) -> None:
    """Wait until the outbox has tried every row once (a pending row left has failed an attempt)."""
    sql = text("SELECT count(*) FROM outbox WHERE status = 'pending' AND attempts = 0")
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        async with chat.services.vault.transaction() as session:
            if not await (await session.connection()).scalar(sql):
                return
        assert asyncio.get_running_loop().time() < deadline, "the outbox never settled"
        await asyncio.sleep(0.02)


async def fill(url: str) -> list[str]:
    """Characters of all five systems, pools, rolls, Storyteller-log entries, audit, outbox rows
    (delivered, dead, pending), identity links and link codes, processed messages, leases, kv,
    scene state, process rows and rate buckets; the public ids of the rolls."""
    fake = FakeAdapter("fake")
    chat = await start_chat(url, adapters=[fake], stlog={"targets": ["fake:log"]})
    ids: list[str] = []
    try:
        for system, ch in SYSTEMS.items():
            chat.clock.advance(seconds=61, microseconds=123457)  # timestamps with microseconds
            await ok(chat, f"system {system}", "ana", st=True, channel=ch)
            hero = HEROES[ch]
            if ch == "nc":
                await build(chat, hero, "mira", channel=ch)
            else:
                await ok(chat, f"char new {hero}", "mira", channel=ch)
                for trait, value in TRAITS[ch].items():
                    await ok(chat, f"st set {hero} {trait} {value}", "ana", st=True, channel=ch)
            line, faces = ROLLS[ch]
            chat.dice.extend(faces)
            ids.append((await ok(chat, line, "mira", channel=ch)).result["id"])
        for ch in ("dec", "dra"):
            await ok(chat, f"st approve {HEROES[ch]}", "ana", st=True, channel=ch)
        chat.dice.extend([9, 5, 10])
        ids.append((await ok(chat, "roll 3", "bob", channel="nc")).result["id"])  # a bare roll
        # Identity links: console:mira and discord:555 become one person; a code left unused.
        code = (await ok(chat, "link", "mira")).result["code"]
        await ok(chat, f"link {code}", "555", platform="discord", channel="table")
        await ok(chat, "link", "bob")
        # Macros: a person's and a channel's (revision 0009).
        await ok(chat, "macro add hit = roll {1} ; roll 1 # from the rafters", "mira", channel="nc")
        await ok(chat, "macro add --chronicle ž-hit = roll 2", "ana", st=True, channel="nc")
        # A house rule (revision 0010).
        await ok(chat, "house set botch off", "ana", st=True, channel="dra")
        # Kept statistics (revision 0012): the rolls settle, then a count keeps its tallies.
        chat.clock.advance(seconds=61)
        await ok(chat, "stats channel", "ana", st=True, channel="nc")
        # A biography and a portrait's bytes (revision 0013): binary survives the copy byte for byte.
        await ok(chat, f"char use {HEROES['nc']}", "mira", channel="nc")
        await ok(chat, "char bio Born under the bridge. // Keeps her word.", "mira", channel="nc")
        async with chat.services.vault.transaction() as session:
            hero = await find_character(session, "nightcap", HEROES["nc"])
            assert hero is not None and hero.id is not None
            await profiles.set_portrait(
                session, hero.id, b"\x89PNG\r\n\x1a\n\x00\xff" * 40, "image/png", chat.clock.now
            )
        # A processed message with a stored response (a retried request gets the same answer).
        chat.dice.extend([4, 4])
        ids.append((await ok(chat, "roll 2", "bob", channel="nc", message_id="msg-1")).result["id"])
        await settled(chat)
        # A dead row and a pending one (the clock stands still, so its retry never comes).
        fake.fail(DeliveryFailed("webhook deleted"))
        chat.dice.extend([1, 1])
        ids.append((await ok(chat, "roll 2", "bob", channel="nc")).result["id"])
        await settled(chat)
        fake.fail(RetryLater("503"))
        chat.dice.extend([2, 2])
        ids.append((await ok(chat, "roll 2", "bob", channel="nc")).result["id"])
        await settled(chat)
        vault = chat.services.vault
        assert await Leases(vault, owner="process-a").try_acquire("irc:libera") is not None
        async with vault.transaction() as session:
            session.add(
                KeyValue(scope="matrix", key="sync", value={"token": "s72_1", "nested": [1, 2.5, None]})
            )
            session.add(
                SceneState(channel_key="console:nc", system="nightcap", kind="combat", data={"é": [3]})
            )
            session.add(
                ProcessRow(id="h:1", host="h", pid=1, version="1.0", state={"leases": ["irc:libera"]})
            )
            session.add(RateBucket(key="sl:object", tokens=0.1 + 0.2))
            # A sign-in link and a web session (revision 0011): only hashes are ever stored.
            expires = datetime(2026, 11, 30, 20, 10, 0, 654321, tzinfo=UTC)
            session.add(WebLink(token_hash="a" * 64, identity_key="console:mira", expires_at=expires))
            session.add(WebSession(token_hash="b" * 64, identity_key="console:mira", agent="Firefox é"))
        async with vault.transaction() as session:  # SQL NULL beside JSON null: both must survive
            await (await session.connection()).execute(
                text(
                    "INSERT INTO processed_message (platform, message_id, created_at, response) VALUES "
                    "('irc', 'sql-null', '2026-11-30 20:00:00.000001', NULL), "
                    "('irc', 'json-null', '2026-11-30 20:00:00.000002', 'null')"
                )
            )
    finally:
        await chat.stop()
    return ids


async def answers(url: str, ids: list[str]) -> list[tuple[str, str | None, Any]]:
    """What the same commands answer on the vault at ``url``: verify ID, st log, st show, sheet, char list."""
    chat = await start_chat(url)
    lines: list[tuple[str, str, dict[str, Any]]] = [(f"verify {i}", "bob", {}) for i in ids]
    lines += [
        ("st log --limit 100", "ana", {"st": True}),
        ("stats channel", "ana", {"st": True, "channel": "nc"}),
        (f"st show {HEROES['nc']}", "ana", {"st": True, "channel": "nc"}),
    ]
    for ch in SYSTEMS.values():
        lines += [(f"char use {HEROES[ch]}", "mira", {"channel": ch}), ("sheet", "mira", {"channel": ch})]
        lines += [("char list" if ch == "nc" else "char", "mira", {"channel": ch})]
        lines += [(f"st history {HEROES[ch]}", "ana", {"st": True, "channel": ch})]
        if ch == "nc":  # the linked Discord identity is the same person, with the same character
            lines += [
                ("sheet", "555", {"platform": "discord", "channel": ch}),
                ("prove", "mira", {"channel": ch}),
            ]
    found = []
    try:
        for line, as_, kw in lines:
            for reply in await chat.say(line, as_, **kw):
                found.append((line, reply.error, reply.text))
    finally:
        await chat.stop()
    return found


async def table_counts(url: str) -> dict[str, int]:
    vault = Vault(url)
    try:
        async with vault.engine.connect() as conn:
            names = await conn.run_sync(lambda c: sorted(c.dialect.get_table_names(c)))
            names = [n for n in names if not is_index_object(n, "table")]  # SQLite's FTS5 tables
            return {n: int(await conn.scalar(text(f'SELECT count(*) FROM "{n}"')) or 0) for n in names}
    finally:
        await vault.dispose()


async def outbox_statuses(url: str) -> list[str]:
    vault = Vault(url)
    try:
        async with vault.engine.connect() as conn:
            return sorted(set((await conn.execute(text("SELECT status FROM outbox"))).scalars()))
    finally:
        await vault.dispose()


async def null_kinds(url: str) -> list[tuple[str, bool]]:
    vault = Vault(url)
    try:
        async with vault.engine.connect() as conn:
            sql = "SELECT message_id, response IS NULL FROM processed_message WHERE platform = 'irc'"
            return sorted((str(a), bool(b)) for a, b in (await conn.execute(text(sql))).all())
    finally:
        await vault.dispose()


@pytest.mark.postgres
async def test_copy_to_postgresql_and_back_answers_the_same(
    tmp_path: Path, sqlite_url: str, pg_url: str
) -> None:
    ids = await fill(sqlite_url)
    assert await outbox_statuses(sqlite_url) == ["dead", "delivered", "pending"]
    before = await answers(sqlite_url, ids)
    counts = await table_counts(sqlite_url)
    assert all(counts[t] for t in counts if t not in {"alembic_version"}), counts  # every kind of row

    done = await asyncio.to_thread(gateway_cli, "copy", "--from", sqlite_url, "--to", pg_url)
    assert done.returncode == 0, done.stderr
    table = {line.split()[0]: line.split()[1] for line in done.stdout.splitlines()[1:-1]}
    assert table["roll_log"] == str(counts["roll_log"]) and table["character"] == str(counts["character"])
    assert "rows" in done.stderr and "100%" in done.stderr  # the progress bar, on stderr
    assert await table_counts(pg_url) == counts
    assert await null_kinds(pg_url) == [("json-null", False), ("sql-null", True)]
    assert await answers(pg_url, ids) == before

    back = f"sqlite+aiosqlite:///{tmp_path / 'back.db'}"
    done = await asyncio.to_thread(gateway_cli, "copy", "--from", pg_url, "--to", back)
    assert done.returncode == 0, done.stderr
    assert await table_counts(back) == counts
    assert await null_kinds(back) == [("json-null", False), ("sql-null", True)]
    assert await answers(back, ids) == before
    # JSON documents travel as their text: the round trip gives the same bytes.
    with sqlite3.connect(sqlite_file(sqlite_url)) as a, sqlite3.connect(tmp_path / "back.db") as b:
        for sql in JSON_TEXT:
            assert a.execute(sql).fetchall() == b.execute(sql).fetchall(), sql


@pytest.mark.postgres
async def test_after_a_copy_to_postgresql_new_rows_get_new_ids(sqlite_url: str, pg_url: str) -> None:
    ids = await fill(sqlite_url)
    await copy_vault(sqlite_url, pg_url)
    chat = await start_chat(pg_url)
    try:
        chat.dice.extend([8, 8, 8])
        roll = await ok(chat, "roll 3", "bob", channel="nc")
        assert roll.result["id"] not in ids
        await ok(chat, "char new Dorian", "carol", channel="dec")
        async with chat.services.vault.engine.connect() as conn:
            rolls = (await conn.execute(text("SELECT id FROM roll_log ORDER BY id"))).scalars().all()
            people = (await conn.execute(text("SELECT id FROM person ORDER BY id"))).scalars().all()
        assert rolls == list(range(1, len(ids) + 2)) and len(people) == len(set(people))
    finally:
        await chat.stop()


async def test_sqlite_to_sqlite_copy_keeps_every_row(tmp_path: Path, sqlite_url: str) -> None:
    """The copy in-process, without PostgreSQL: counts and digests, and the answers."""
    ids = await fill(sqlite_url)
    target = f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}"
    reports = await copy_vault(sqlite_url, target, batch=3)  # several batches per table
    counts = await table_counts(sqlite_url)
    assert {r.name: r.rows for r in reports} == {t: n for t, n in counts.items() if t != "alembic_version"}
    assert await answers(target, ids) == await answers(sqlite_url, ids)


async def test_a_running_gateway_may_write_to_a_sqlite_source(tmp_path: Path, sqlite_url: str) -> None:
    """The copy reads one snapshot; a gateway writing meanwhile neither blocks nor spoils it."""
    chat = await start_chat(sqlite_url)
    try:
        for _ in range(30):
            chat.dice.extend([5, 5])
            await ok(chat, "roll 2", "bob")
        target = f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}"
        copying = asyncio.create_task(
            asyncio.to_thread(lambda: asyncio.run(copy_vault(sqlite_url, target, batch=2)))
        )
        written = 0
        while not copying.done() and written < 200:  # each roll commits while the copy reads
            chat.dice.extend([6, 6])
            await ok(chat, "roll 2", "bob")
            written += 1
        reports = await copying
        assert (await table_counts(sqlite_url))["roll_log"] == 30 + written
    finally:
        await chat.stop()
    copied = {r.name: r.rows for r in reports}["roll_log"]
    assert 30 <= copied <= 30 + written
    assert (await table_counts(target))["roll_log"] == copied


# ---------------------------------------------------------------- refusals


async def make_vault(url: str, revision: str = "heads") -> None:
    vault = Vault(url)
    cfg = alembic_config()

    def run(conn: Connection) -> None:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)

    try:
        async with vault.engine.connect() as conn:
            await conn.run_sync(run)
            await conn.commit()
    finally:
        await vault.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def target_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'target.db'}"
        return
    if not os.environ.get(POSTGRES_URL_VARIABLE):
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")
    with postgres_database() as url:
        yield url


async def test_a_non_empty_target_is_refused(sqlite_url: str, target_url: str) -> None:
    await fill(sqlite_url)
    await copy_vault(sqlite_url, target_url)
    counts = await table_counts(target_url)
    done = await asyncio.to_thread(gateway_cli, "copy", "--from", sqlite_url, "--to", target_url)
    refused_in_one_line(done, "not empty", "roll_log")
    assert await table_counts(target_url) == counts


async def test_an_outdated_source_is_refused(tmp_path: Path, sqlite_url: str, target_url: str) -> None:
    await make_vault(sqlite_url, "0005_leases")
    done = await asyncio.to_thread(gateway_cli, "copy", "--from", sqlite_url, "--to", target_url)
    refused_in_one_line(done, "0005_leases", "gateway db upgrade")
    assert not (tmp_path / "target.db").exists()
    if target_url.startswith("postgresql"):
        assert await table_counts(target_url) == {}


async def test_the_same_vault_is_refused(tmp_path: Path, sqlite_url: str) -> None:
    await fill(sqlite_url)
    counts = await table_counts(sqlite_url)
    relative = "sqlite+aiosqlite:///" + os.path.relpath(sqlite_file(sqlite_url), ROOT)
    done = await asyncio.to_thread(gateway_cli, "copy", "--from", sqlite_url, "--to", relative)
    refused_in_one_line(done, "same vault")
    assert await table_counts(sqlite_url) == counts
    with pytest.raises(CopyRefused, match="same vault"):
        await copy_vault(sqlite_url, sqlite_url)


@pytest.mark.parametrize(
    "target",
    ["postgresql+asyncpg://gateway@127.0.0.1:1/nothing", "sqlite+aiosqlite:///{tmp}/no/such/dir/vault.db"],
)
async def test_an_unreachable_target_is_refused(tmp_path: Path, sqlite_url: str, target: str) -> None:
    await make_vault(sqlite_url)
    target = target.format(tmp=tmp_path)
    done = await asyncio.to_thread(gateway_cli, "copy", "--from", sqlite_url, "--to", target)
    refused_in_one_line(done, "cannot open the target vault")
    assert not (tmp_path / "no").exists()


async def test_the_source_defaults_to_the_configured_vault(tmp_path: Path, sqlite_url: str) -> None:
    await fill(sqlite_url)
    config = tmp_path / "gateway.toml"
    config.write_text(f'[vault]\nurl = "{sqlite_url}"\n')
    target = f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}"
    done = await asyncio.to_thread(gateway_cli, "copy", "--to", target, config=config)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith(
        f"copied {sum((await table_counts(target)).values()) - 1} rows"
    )
    missing = await asyncio.to_thread(
        gateway_cli, "copy", "--from", f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", "--to", target
    )
    refused_in_one_line(missing, "no SQLite vault")


# ---------------------------------------------------------------- tables a plugin's migrations make

PLUGIN_REVISION = """
import sqlalchemy as sa
from alembic import op

revision = "p001_notes"
down_revision = None
branch_labels = ("notesplugin",)
depends_on = None


def upgrade():
    op.create_table(
        "plugin_note",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("body", sa.JSON(), nullable=True),
        sa.Column("pinned", sa.Boolean(), nullable=False),
    )
"""


async def plugin_vault(url: str, locations: list[str]) -> None:
    vault = Vault(url)
    try:
        await upgrade(vault, locations)
        async with vault.engine.begin() as conn:
            await conn.execute(
                text(
                    "INSERT INTO plugin_note (id, body, pinned) "
                    "VALUES (7, '{\"a\": [1.5]}', true), (9, NULL, false)"
                )
            )
    finally:
        await vault.dispose()


async def test_a_plugins_tables_are_copied_when_its_models_are_known(tmp_path: Path) -> None:
    versions = tmp_path / "notes_versions"
    versions.mkdir()
    (versions / "p001_notes.py").write_text(PLUGIN_REVISION)
    source = f"sqlite+aiosqlite:///{tmp_path / 'source.db'}"
    await plugin_vault(source, [str(versions)])
    # Without the plugin's model the table cannot be copied faithfully: refused, before any row moves.
    with pytest.raises(CopyRefused, match="plugin_note"):
        await copy_vault(source, f"sqlite+aiosqlite:///{tmp_path / 'a.db'}", locations=[str(versions)])
    models = MetaData()
    for table in SQLModel.metadata.tables.values():
        table.to_metadata(models)
    Table(
        "plugin_note",
        models,
        Column("id", Integer, primary_key=True),
        Column("body", JSON),
        Column("pinned", Boolean),
    )
    target = f"sqlite+aiosqlite:///{tmp_path / 'b.db'}"
    reports = await copy_vault(source, target, locations=[str(versions)], metadata=models)
    assert {r.name: r.rows for r in reports}["plugin_note"] == 2
    with sqlite3.connect(tmp_path / "b.db") as copy:
        assert copy.execute("SELECT id, body, pinned FROM plugin_note ORDER BY id").fetchall() == [
            (7, '{"a": [1.5]}', 1),
            (9, None, 0),
        ]
        heads = {r[0] for r in copy.execute("SELECT version_num FROM alembic_version")}
    assert "p001_notes" in heads


async def test_a_read_back_that_differs_rolls_the_target_back(
    tmp_path: Path, sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await fill(sqlite_url)
    real = copy_module._digest

    async def spoiled(conn: AsyncConnection, table: Table, batch: int) -> Any:
        digest = await real(conn, table, batch)
        if table.name == "roll_log":
            digest.value ^= 1
        return digest

    monkeypatch.setattr(copy_module, "_digest", spoiled)
    target = f"sqlite+aiosqlite:///{tmp_path / 'copy.db'}"
    with pytest.raises(CopyMismatch, match="roll_log"):
        await copy_vault(sqlite_url, target)
    assert {n: c for n, c in (await table_counts(target)).items() if c} == {"alembic_version": 1}
