"""The PostgreSQL unit (``gateway.vault.pg_inline``): ``Prepared`` statements on asyncpg itself give
what SQLAlchemy's execution gives, in the same transaction as the ORM, with SQLAlchemy's errors.

Every ``Prepared`` statement the gateway has runs here through both paths, in the same order on the
same data, and the rows must be equal value for value and type for type (JSON, datetimes with and
without a time zone, booleans, NULLs, floats). Needs ``GATEWAY_TEST_POSTGRES_URL``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import orjson
import pytest
from sqlalchemy import JSON, Boolean, DateTime, Float, Integer, Numeric, String, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.sql.dml import Insert

from gateway.core import adapter_state, commands
from gateway.core.types import Channel, Identity
from gateway.delivery import heartbeat, leases, outbox, queue, rate_buckets, seen
from gateway.features import roles
from gateway.features.characters import set_pool
from gateway.features.house_rules import store as house_store
from gateway.ops import readiness
from gateway.testing import POSTGRES_URL_VARIABLE, postgres_database
from gateway.vault import Vault, notify, repo, sender
from gateway.vault.columns import UTCDateTime
from gateway.vault.migrate import upgrade
from gateway.vault.models import Character, Person
from gateway.vault.pg_inline import PostgresUnit
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit
from tests.core.test_prepared_dialects import STATEMENTS
from tests.core.test_vault_unit import roll_params

pytestmark = pytest.mark.skipif(
    not os.environ.get(POSTGRES_URL_VARIABLE), reason=f"needs PostgreSQL ({POSTGRES_URL_VARIABLE})"
)

NOW = datetime(2026, 3, 4, 5, 6, 7, 891011, tzinfo=UTC)
HOUR = timedelta(hours=1)
DOC = {"a": [1, 2.5, None, True], "é": "x'y\\z", "n": {"deep": False}}
PLATFORM = "pgp"
IDENTITY = Identity("pgp", "alice", "Alice")
CHANNEL = Channel("pgp", "table")

# A probe of the types the vault's columns use and a few it does not, through both paths.
TYPES = Prepared(
    text(
        "SELECT CAST(:moment AS timestamptz) AS aware, CAST(:moment AS timestamp) AS naive,"
        " CAST(:yes AS boolean) AS yes, CAST(NULL AS boolean) AS nothing, CAST(:doc AS json) AS doc,"
        " CAST(:doc AS jsonb) AS docb, CAST(:x AS float8) AS x, CAST(:x AS numeric) AS exact,"
        " CAST(:n AS integer) AS n, CAST(:s AS varchar) AS s, CAST(NULL AS json) AS nodoc,"
        # processors that convert: numeric read as a float, a naive timestamp read as UTC
        " CAST(:x AS numeric) AS inexact, CAST(:moment AS timestamp) AS utc"
    ).columns(
        aware=DateTime(timezone=True),
        naive=DateTime(),
        yes=Boolean(),
        nothing=Boolean(),
        doc=JSON(),
        docb=JSON(),
        x=Float(),
        exact=Numeric(),
        n=Integer(),
        s=String(),
        nodoc=JSON(),
        inexact=Float(),
        utc=UTCDateTime(),
    )
)


def _roll(row_id: int, public_id: str, person_id: int | None) -> dict[str, Any]:
    return roll_params(public_id, id=row_id, person_id=person_id, identity_key=IDENTITY.key, result=DOC)


def _outbox(row_id: int, target: str, error: str | None) -> dict[str, Any]:
    return dict(
        id=row_id,
        platform=PLATFORM,
        target=target,
        payload={"text": f"line {row_id}", "ids": [row_id]},
        status="pending",
        attempts=0,
        next_attempt_at=NOW - HOUR,
        claimed_until=None,
        last_error=error,
        created_at=NOW,
        delivered_at=None,
    )


def script(person_id: int, character_id: int = 1) -> list[tuple[Prepared, dict[str, Any]]]:
    """Every Prepared statement, in an order where each finds rows to work on."""
    kv = {"in_scope": "s", "at_key": "k1"}
    willpower = {"owner": character_id, "pool_name": "willpower"}
    fan = {"on_platform": PLATFORM, "address": "t1", "first": 900001}
    return [
        (TYPES, {"moment": NOW, "yes": True, "doc": '{"k": [1, null]}', "x": 2.5, "n": 7, "s": "é"}),
        (adapter_state.PUT["postgresql"], {"scope": "s", "key": "k1", "value": DOC, "updated_at": NOW}),
        (
            adapter_state.PUT_MISSING["postgresql"],
            {"scope": "s", "key": "k2", "value": [1], "updated_at": NOW},
        ),
        (
            adapter_state.PUT_MISSING["postgresql"],
            {"scope": "s", "key": "k2", "value": [2], "updated_at": NOW},
        ),
        (adapter_state.GET, kv),
        (adapter_state.LOCK, kv),
        (adapter_state.ITEMS, {"in_scope": "s", "prefix": "k"}),
        (adapter_state.PRUNE, {"in_scope": "s", "before": NOW - HOUR}),
        (adapter_state.DELETE, {"in_scope": "s", "at_key": "k2"}),
        (commands.ROLL_INSERT, _roll(900001, "pgprep01", person_id)),
        (commands.ROLL_INSERT, _roll(900002, "pgprep02", None)),
        (repo._ROLL_STLOG, {"roll_id": "pgprep01", "line": "Alice rolls", "line_kind": "roll", "final": DOC}),
        (
            repo.STLOG_INSERT,
            dict(id=900001, person_id=None, character_id=None, channel_key=CHANNEL.key, kind="note", text="t")
            | {"result": {"x": 1}, "created_at": NOW},
        ),
        (repo.OUTBOX_INSERT, _outbox(900001, "t1", None)),
        (repo.OUTBOX_INSERT, _outbox(900002, "t1", "http 500: down")),
        (repo.OUTBOX_INSERT, _outbox(900003, "t2", "http 500: down")),
        (queue.NEWEST, {}),
        (queue.PENDING_ROWS, {"on_platform": PLATFORM}),
        (queue.ROWS_AFTER, {"on_platform": PLATFORM, "after": 900001}),
        (queue.TALLY, {"on_platform": PLATFORM}),
        (queue.SPAN, {"on_platform": PLATFORM, "first": 900001, "last": 900003}),
        (queue.DEPTH, {}),
        (queue.BACKLOG, {}),
        (queue.HEADS, {}),
        (outbox.NEXT_DUE, {"platform": PLATFORM, "elsewhere": '["t2"]'}),
        (outbox.CLAIM, {"platform": PLATFORM, "now": NOW, "elsewhere": '["t2"]'}),
        (outbox.LEASE_ROW, {"row_id": 900001, "until": NOW + HOUR, "claimed_at": NOW}),
        (outbox.RENEW, {"row_id": 900001, "until": NOW + 2 * HOUR}),
        (outbox.EXPEDITE, {"on_platform": PLATFORM, "queue": "t1", "now": NOW}),
        (queue.EXPEDITE_FAILED, {"on_platform": PLATFORM, "prefix": "http 500", "now": NOW - 2 * HOUR}),
        (queue.FANOUT_IDS, fan),
        (queue.FANOUT_PAYLOADS, fan | {"last": 900002}),
        (queue.FANOUT_DONE, fan | {"last": 900001, "now": NOW}),
        (
            outbox.FINISH,
            {"row_id": 900003, "status": "pending", "attempts": 1, "last_error": None, "claimed_at": NOW}
            | {"next_attempt_at": NOW + HOUR, "delivered_at": None},
        ),
        (outbox.PRUNE, {"before": NOW + HOUR}),
        (
            heartbeat.BEAT["postgresql"],
            {"id": "p1", "host": "h", "pid": 1, "version": "v", "state": {"up": True}},
        ),
        (heartbeat.PRUNE["postgresql"], {}),
        (heartbeat.FORGET, {"id": "p1"}),
        (leases.CLAIM["postgresql"], {"name": "pgprep", "owner": "o", "ttl": 30.0}),
        (leases.CURRENT, {"name": "pgprep"}),
        (leases.RELEASE["postgresql"], {"name": "pgprep", "owner": "o", "epoch": 1}),
        (rate_buckets.TAKE["postgresql"], {"key": "b1", "burst": 5.0, "rate": 1.0}),
        (rate_buckets.TAKE["postgresql"], {"key": "b1", "burst": 5.0, "rate": 0.0}),
        (rate_buckets.PRUNE["postgresql"], {"prefix": "b", "keep": 3600.0}),
        (readiness.HAS_VERSIONS["postgresql"], {}),
        (readiness.SELECT_ONE, {}),
        (readiness.VERSIONS, {}),
        (roles._PERSON_ROLE, {"key": IDENTITY.key}),
        (repo._PERSON_OF, {"key": IDENTITY.key}),
        (repo._RECORD_MESSAGE["postgresql"], {"platform": PLATFORM, "message_id": "m1", "created_at": NOW}),
        (repo._RECORD_MESSAGE["postgresql"], {"platform": PLATFORM, "message_id": "m1", "created_at": NOW}),
        (seen.RECENT, {"on_platform": PLATFORM, "since": NOW - HOUR}),
        (repo._STORE_RESPONSE, {"for_platform": PLATFORM, "for_id": "m1", "replies": [{"text": "x"}]}),
        (repo._READ_RESPONSE, {"for_platform": PLATFORM, "for_id": "m1"}),
        (seen.PRUNE, {"on_platform": PLATFORM, "before": NOW - HOUR}),
        (sender._QUERY, {"key": IDENTITY.key, "channel": CHANNEL.key, "default_system": None, "owner": None}),
        (sender._REFRESH_IDENTITY, {"link_key": IDENTITY.key, "new_name": "Al", "new_verified": True}),
        # With the channel's house rules (one set: see _person) of the default system, then of none.
        # With the owner's person (the sender is the owner here), then with an owner never seen.
        (
            sender._QUERY,
            {
                "key": IDENTITY.key,
                "channel": CHANNEL.key,
                "default_system": "nightcap",
                "owner": IDENTITY.key,
            },
        ),
        (
            sender._QUERY,
            {"key": IDENTITY.key, "channel": CHANNEL.key, "default_system": "dramatic", "owner": "x:1"},
        ),
        (sender._CHARACTER_QUERY, {"id": character_id}),
        (sender._LOCALES, {"key": IDENTITY.key, "channel": CHANNEL.key}),
        (sender._NAMES_QUERY, {"person": person_id, "system": "nightcap", "limit": 11}),
        (repo._POOL_STATE, willpower),
        (repo._TAKE_POOL, willpower | {"amount": 1}),
        (repo._TAKE_POOL, willpower | {"amount": 9}),  # more than is left: no row
        (repo._POOL_STATE, willpower),
        (house_store._READ, {"channel": CHANNEL.key, "system": "nightcap"}),
    ]


def _returns_rows(prepared: Prepared) -> bool:
    statement: Any = prepared.statement
    return bool(getattr(statement, "is_select", False) or getattr(statement, "_returning", ()))


async def _run_script(unit: Unit, steps: list[tuple[Prepared, dict[str, Any]]]) -> list[Any]:
    found: list[Any] = []
    for prepared, params in steps:
        if _returns_rows(prepared):
            found.append(await unit.all(prepared, params))
        else:
            found.append(await unit.execute(prepared, params))
    return found


def _same(a: Any, b: Any, path: str) -> None:
    assert type(a) is type(b), f"{path}: {a!r} against {b!r}"
    if isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert a.keys() == b.keys(), path
        for key in a:
            _same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, datetime):
        # clock_timestamp() moves on between the runs; the kind of value must not.
        assert a.tzinfo == b.tzinfo and abs(a - b) < timedelta(seconds=60), f"{path}: {a!r} against {b!r}"
    else:
        assert a == b, f"{path}: {a!r} against {b!r}"


@pytest.fixture
def pg_url() -> Iterator[str]:
    with postgres_database() as url:
        yield url


@pytest.fixture
async def vault(pg_url: str) -> AsyncIterator[Vault]:
    vault = Vault(pg_url)
    await upgrade(vault)
    try:
        yield vault
    finally:
        await vault.dispose()


async def _person(vault: Vault) -> tuple[int, int]:
    """The sender's person, and a character of theirs with 3 Willpower."""
    async with vault.unit() as unit:
        found = await sender.resolve_sender(unit, IDENTITY, CHANNEL)
        await unit.session.flush()
        assert found.person.id is not None
        character = Character(
            owner_id=found.person.id, system="nightcap", name="Mira", name_key="mira", sheet={"traits": {}}
        )
        unit.session.add(character)
        await unit.session.flush()
        assert character.id is not None
        await set_pool(unit.session, character.id, "willpower", current=3, maximum=3)
        await house_store.put(unit, CHANNEL.key, "nightcap", "botch", {"on": "ones"}, NOW)
        await unit.session.flush()
        return found.person.id, character.id


def test_the_script_runs_every_postgresql_statement() -> None:
    mine = {id(prepared) for prepared, _ in script(1)}
    missing = [where for where, dialect, p in STATEMENTS if dialect == "postgresql" and id(p) not in mine]
    assert not missing, f"add these to the script: {missing}"


async def test_every_prepared_statement_gives_what_sqlalchemy_gives(vault: Vault) -> None:
    steps = script(*await _person(vault))
    results = {}
    for kind in (PostgresUnit, Unit):
        async with vault.engine.connect() as connection:
            unit = kind(connection)
            await unit.begin()
            try:
                results[kind] = await _run_script(unit, steps)
            finally:
                await unit.close(failed=True)  # both runs start from the same rows
    inline, portable = results[PostgresUnit], results[Unit]
    names = {id(p): where for where, _, p in STATEMENTS}
    for i, ((prepared, _), a, b) in enumerate(zip(steps, inline, portable, strict=True)):
        _same(a, b, f"step {i} ({names.get(id(prepared), 'TYPES')})")
    probe = inline[0][0]
    assert probe[0] == NOW and probe[1] == NOW.replace(tzinfo=None)  # aware, naive
    assert probe[2:5] == (True, None, {"k": [1, None]}) and probe[10] is None
    assert type(probe[6]) is float and probe[7] == Decimal("2.5")
    assert type(probe[11]) is float and probe[12] == NOW
    assert inline[1] == 1 and inline[3] == 0  # rowcounts: an upsert, a conflict left alone


async def test_units_on_postgresql_run_inline(vault: Vault) -> None:
    async with vault.unit() as unit:
        assert isinstance(unit, PostgresUnit)
        assert unit.driver.raw.is_in_transaction()


async def test_a_raw_statement_first_still_runs_in_the_transaction(vault: Vault) -> None:
    """The unit's first statement is raw, the session's comes after: one transaction, rolled back
    together (SQLAlchemy's adapter would otherwise begin a transaction of its own)."""
    person_id, _ = await _person(vault)
    with pytest.raises(RuntimeError):
        async with vault.unit() as unit:
            await unit.execute(commands.ROLL_INSERT, _roll(900010, "pgprep10", person_id))
            person = await unit.session.get(Person, person_id)
            assert person is not None
            person.storyteller = True
            await unit.session.flush()
            raise RuntimeError("fail the unit")
    async with vault.unit() as unit:
        assert await unit.first(repo._PERSON_OF, {"key": IDENTITY.key}) == (person_id,)
        person = await unit.session.get(Person, person_id)
        assert person is not None and person.storyteller is False
        rows = await unit.all(Prepared(text("SELECT id FROM roll_log WHERE id = 900010")), {})
        assert rows == []


async def test_orm_writes_and_raw_writes_commit_together(vault: Vault) -> None:
    person_id, _ = await _person(vault)
    async with vault.unit() as unit:
        person = await unit.session.get(Person, person_id)
        assert person is not None
        person.storyteller = True  # pending: flushed before the raw statement sees the row
        assert await unit.all(roles._PERSON_ROLE, {"key": IDENTITY.key}) == [(person_id, True)]
        await unit.execute(commands.ROLL_INSERT, _roll(900011, "pgprep11", person_id))
    async with vault.unit() as unit:
        assert await unit.all(roles._PERSON_ROLE, {"key": IDENTITY.key}) == [(person_id, True)]
        assert await unit.all(Prepared(text("SELECT id FROM roll_log WHERE id = 900011")), {}) == [(900011,)]


async def test_a_unique_violation_is_sqlalchemys_integrity_error_and_the_vault_goes_on(vault: Vault) -> None:
    async with vault.unit() as unit:
        await unit.execute(commands.ROLL_INSERT, _roll(900020, "pgprep20", None))
    with pytest.raises(IntegrityError) as caught:
        async with vault.unit() as unit:
            await unit.execute(commands.ROLL_INSERT, _roll(900021, "pgprep20", None))
    assert isinstance(caught.value.orig.__cause__, asyncpg.UniqueViolationError)  # type: ignore[union-attr]
    async with vault.unit() as unit:
        await unit.execute(commands.ROLL_INSERT, _roll(900021, "pgprep21", None))


async def test_a_failed_statement_is_a_dbapi_error(vault: Vault) -> None:
    with pytest.raises(DBAPIError):
        async with vault.unit() as unit:
            await unit.all(
                Prepared(text("SELECT 1 / CAST(:zero AS integer) AS n").columns(n=Integer())), {"zero": 0}
            )


async def test_notices_go_out_with_the_commit_and_never_on_rollback(vault: Vault, pg_url: str) -> None:
    listener = await asyncpg.connect(notify.asyncpg_dsn(pg_url))
    heard: asyncio.Queue[str] = asyncio.Queue()
    await listener.add_listener(notify.CHANNEL, lambda *args: heard.put_nowait(args[3]))
    try:
        for fails in (True, False):
            with pytest.raises(RuntimeError) if fails else contextlib.nullcontext():
                async with vault.unit() as unit:
                    assert isinstance(unit, PostgresUnit)
                    unit.notify_on_commit(notify.CHANNEL, ["it's one", "two"])
                    await unit.execute(
                        commands.ROLL_INSERT, _roll(900030 + fails, f"pgprep3{int(fails)}", None)
                    )
                    if fails:
                        raise RuntimeError("fail the unit")
        got = [await asyncio.wait_for(heard.get(), 10), await asyncio.wait_for(heard.get(), 10)]
        assert got == ["it's one", "two"]
        await asyncio.sleep(0)
        assert heard.empty()
    finally:
        await listener.close()


async def test_a_units_notice_follows_its_commit_in_order_and_never_a_rollback(
    vault: Vault, pg_url: str
) -> None:
    """A unit's notice for the other processes goes out right after its commit, in a transaction
    of its own (``notify.AfterCommit``: a ``NOTIFY`` in the unit would serialise every commit)."""
    listener = await asyncpg.connect(notify.asyncpg_dsn(pg_url))
    heard: asyncio.Queue[str] = asyncio.Queue()
    await listener.add_listener(notify.CHANNEL, lambda *args: heard.put_nowait(args[3]))
    try:
        for n, fails in ((1, False), (2, True), (3, False)):
            with pytest.raises(RuntimeError) if fails else contextlib.nullcontext():
                async with vault.unit() as unit:
                    unit.queued.add(f"platform{n}")
                    if fails:
                        raise RuntimeError("fail the unit")
        got = [await asyncio.wait_for(heard.get(), 10) for _ in range(2)]
        assert [orjson.loads(g)["q"] for g in got] == [["platform1"], ["platform3"]]
        await asyncio.sleep(0.2)
        assert heard.empty()
    finally:
        await listener.close()


async def test_a_connection_the_server_closed_is_replaced_with_no_stale_statements(vault: Vault) -> None:
    async with vault.unit() as unit:
        assert isinstance(unit, PostgresUnit)
        await unit.first(repo._PERSON_OF, {"key": "nobody"})
        old = unit.driver
        assert old.statements
        pid = old.raw.get_server_pid()
    killer = await asyncpg.connect(notify.asyncpg_dsn(vault.url))
    try:
        await killer.execute(f"SELECT pg_terminate_backend({pid})")
    finally:
        await killer.close()
    # The loop reads the server's close; the next checkout finds the connection closed.
    for _ in range(200):
        if old.raw.is_closed():
            break
        await asyncio.sleep(0.01)
    async with vault.unit() as unit:
        assert isinstance(unit, PostgresUnit)
        assert unit.driver is not old and unit.driver.raw.get_server_pid() != pid
        assert not unit.driver.statements
        assert await unit.first(repo._PERSON_OF, {"key": "nobody"}) is None


async def test_a_statement_the_schema_changed_under_is_prepared_again(vault: Vault) -> None:
    """DDL on another connection (a migration) makes a kept statement stale: the unit that meets it
    fails, as through SQLAlchemy, and the next unit prepares the statement afresh."""
    probe = Prepared(text("SELECT n FROM pgprep_probe WHERE id = :id").columns(n=Integer()))
    async with vault.unit() as unit:
        await unit.execute(
            Prepared(text("CREATE TABLE pgprep_probe (id integer PRIMARY KEY, n integer)")), {}
        )
        await unit.execute(Prepared(text("INSERT INTO pgprep_probe VALUES (1, 2)")), {})
    async with vault.unit() as unit:
        assert await unit.first(probe, {"id": 1}) == (2,)
    other = await asyncpg.connect(notify.asyncpg_dsn(vault.url))
    try:
        await other.execute("ALTER TABLE pgprep_probe ALTER COLUMN n TYPE bigint")
    finally:
        await other.close()
    with pytest.raises(DBAPIError):
        async with vault.unit() as unit:
            await unit.first(probe, {"id": 1})
    async with vault.unit() as unit:
        assert await unit.first(probe, {"id": 1}) == (2,)


def test_insert_statements_in_the_script_set_every_column() -> None:
    # Prepared inserts run no Python-side defaults: the script passes every column, as callers do.
    for prepared, params in script(1):
        if isinstance(prepared.statement, Insert):
            assert set(params) <= set(prepared.statement.table.columns.keys())


async def test_a_unit_cancelled_mid_statement_leaves_no_transaction_behind(vault: Vault) -> None:
    """Its connection may still be in the unit's transaction: it is dropped, never handed out again."""
    started = asyncio.Event()

    async def slow() -> None:
        async with vault.unit() as unit:
            await unit.execute(commands.ROLL_INSERT, _roll(900040, "pgprep40", None))
            started.set()
            await unit.all(Prepared(text("SELECT pg_sleep(30)")), {})

    task = asyncio.create_task(slow())
    await asyncio.wait_for(started.wait(), 10)
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(3):  # whichever connection each takes, every unit begins its own transaction
        async with vault.unit() as unit:
            assert await unit.all(Prepared(text("SELECT id FROM roll_log WHERE id = 900040")), {}) == []
            await unit.execute(commands.ROLL_INSERT, _roll(900041, "pgprep41", None))
            await unit.execute(Prepared(text("DELETE FROM roll_log WHERE id = 900041")), {})


async def test_units_reuse_their_connections_and_the_engine_pool_stays_free(vault: Vault) -> None:
    async with vault.unit() as unit:
        first = unit.connection
    async with vault.unit() as unit:
        assert unit.connection is first
    assert vault.engine.pool.checkedout() == 1  # type: ignore[attr-defined]  # held by the vault, idle
    await vault.dispose()
    assert vault.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


async def test_a_connection_given_back_inside_a_transaction_is_dropped(vault: Vault) -> None:
    assert vault._pg is not None
    connection = await vault._pg.take()
    driver = PostgresUnit(connection).driver
    await driver.raw.execute("BEGIN")  # as a unit cut short before its ROLLBACK would leave it
    await vault._pg.give_back(connection)
    again = await vault._pg.take()
    try:
        assert PostgresUnit(again).driver.raw is not driver.raw
        assert driver.raw.is_closed()
    finally:
        await vault._pg.give_back(again)


async def test_a_notice_the_server_refuses_fails_the_unit_and_keeps_nothing(vault: Vault) -> None:
    with pytest.raises(DBAPIError):
        async with vault.unit() as unit:
            assert isinstance(unit, PostgresUnit)
            raw = unit.driver.raw
            unit.notify_on_commit(notify.CHANNEL, ["x" * 9000])  # PostgreSQL takes under 8000 bytes
            await unit.execute(commands.ROLL_INSERT, _roll(900050, "pgprep50", None))
    async with vault.unit() as unit:
        assert isinstance(unit, PostgresUnit)
        assert unit.driver.raw is raw  # rolled back, so kept for the next unit
        assert await unit.all(Prepared(text("SELECT id FROM roll_log WHERE id = 900050")), {}) == []
