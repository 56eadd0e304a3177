"""The vault's unit of work: prepared statements and the on-demand ORM session share one transaction,
on SQLite (statements straight on the connection) and PostgreSQL (statements through SQLAlchemy)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    event,
    func,
    insert,
)
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError, InvalidRequestError
from sqlalchemy.schema import CreateTable
from sqlmodel import select

from gateway.core.commands import ROLL_INSERT
from gateway.core.types import Channel, Identity
from gateway.vault import repo
from gateway.vault.columns import UTCDateTime
from gateway.vault.engine import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import ChannelRow, IdentityLink, KeyValue, OutboxRow, Person, RollLog
from gateway.vault.prepared import Prepared
from gateway.vault.sender import resolve_sender
from gateway.vault.unit import Unit

_KV = KeyValue.__table__  # type: ignore[attr-defined]
_PERSON = Person.__table__  # type: ignore[attr-defined]
KV_VALUE = Prepared(
    select(_KV.c.value).where(_KV.c.scope == bindparam("scope"), _KV.c.key == bindparam("key"))
)
PERSON_LOCALE = Prepared(select(_PERSON.c.locale).where(_PERSON.c.id == bindparam("id")))

MIRA = Identity(platform="console", id="mira", display_name="Mira")
MAIN = Channel(platform="console", id="main")
WHEN = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


class Boom(Exception):
    """Raised inside a unit to make it fail."""


async def resolve(
    unit: Unit, identity: Identity, channel: Channel
) -> tuple[Person, IdentityLink, ChannelRow]:
    """``resolve_sender``'s person, identity and channel as ORM objects."""
    found = await resolve_sender(unit, identity, channel)
    return found.person, found.identity, found.channel


@pytest.fixture
async def vault(vault_url: str) -> AsyncIterator[Vault]:
    """A migrated vault on each engine, disposed afterwards even when the test fails (the SQLite vault
    holds its writer connection until then)."""
    vault = Vault(vault_url)
    await upgrade(vault)
    yield vault
    await vault.dispose()


def roll_params(public_id: str, **overrides: Any) -> dict[str, Any]:
    """Every roll_log column but ``id``, as ``Context.log_roll`` passes them."""
    params: dict[str, Any] = dict(
        public_id=public_id,
        person_id=None,
        identity_key=MIRA.key,
        display_name=MIRA.display_name,
        channel_key=MAIN.key,
        system="nightcap",
        character_id=None,
        kind="roll",
        pool=3,
        dice=[9, 5, 10],
        total=None,
        degree="success",
        result={"id": public_id},
        created_at=WHEN,
    )
    params.update(overrides)
    return params


async def count(vault: Vault, model: type, *where: Any) -> int:
    """Rows of ``model`` matching ``where``, read through the ORM in a unit of its own."""
    async with vault.transaction() as session:
        statement = select(func.count()).select_from(model)
        for clause in where:
            statement = statement.where(clause)
        return int((await session.exec(statement)).one())


def record_sql(vault: Vault) -> list[str]:
    """Every statement SQLAlchemy sends on ``vault``'s engine from now on (prepared statements on the
    SQLite connection bypass it; ORM flushes never do)."""
    seen: list[str] = []

    @event.listens_for(vault.engine.sync_engine, "before_cursor_execute")
    def _record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        seen.append(" ".join(statement.split()))

    return seen


# --- one transaction for both kinds of write ----------------------------------------------------------


async def test_prepared_insert_and_orm_write_commit_together(vault: Vault) -> None:
    """A prepared insert and a session write in one unit are both there after it commits (the session
    write is still pending at the end of the block: the commit flushes it)."""
    async with vault.unit() as unit:
        await repo.enqueue(unit, "console", "main", {"text": "hello"}, now=WHEN)
        await unit.execute(ROLL_INSERT, roll_params("r1"))
        unit.session.add(KeyValue(scope="test", key="k", value={"n": 1}))
    assert await count(vault, OutboxRow, OutboxRow.target == "main") == 1
    assert await count(vault, RollLog, RollLog.public_id == "r1") == 1
    async with vault.transaction() as session:
        kv = await session.get(KeyValue, ("test", "k"))
        outbox = (await session.exec(select(OutboxRow))).one()
    assert kv is not None and kv.value == {"n": 1}
    assert outbox.payload == {"text": "hello"} and outbox.status == "pending" and outbox.created_at == WHEN


async def test_a_failing_unit_keeps_neither_kind_of_write(vault: Vault) -> None:
    """When the block raises after both writes reached the database, the unit keeps none of them."""
    with pytest.raises(Boom):
        async with vault.unit() as unit:
            unit.session.add(KeyValue(scope="test", key="k", value={"n": 1}))
            await repo.enqueue(unit, "console", "main", {"text": "hello"}, now=WHEN)  # flushes the kv row
            await unit.execute(ROLL_INSERT, roll_params("r1"))
            # Both writes are in the transaction, not merely pending in the session.
            assert await unit.first(KV_VALUE, {"scope": "test", "key": "k"}) == ({"n": 1},)
            assert not unit.session.new
            raise Boom
    assert await count(vault, KeyValue) == 0
    assert await count(vault, OutboxRow) == 0
    assert await count(vault, RollLog) == 0


async def test_a_failing_unit_rolls_back_a_session_write_made_after_the_prepared_one(vault: Vault) -> None:
    """The other order: a prepared insert, then a flushed session write, then the failure."""
    with pytest.raises(Boom):
        async with vault.unit() as unit:
            await unit.execute(ROLL_INSERT, roll_params("r1"))
            unit.session.add(KeyValue(scope="test", key="k", value={}))
            await unit.session.flush()
            raise Boom
    assert await count(vault, RollLog) == 0
    assert await count(vault, KeyValue) == 0
    # The failed unit left the connection usable: the next one commits.
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("r1"))
    assert await count(vault, RollLog) == 1


# --- ordering: the session is flushed before prepared statements ----------------------------------------


async def test_pending_orm_object_is_visible_to_a_later_prepared_select(vault: Vault) -> None:
    """An object added to the session but not flushed is flushed before the unit's next statement."""
    async with vault.unit() as unit:
        unit.session.add(KeyValue(scope="test", key="k", value={"a": [1, 2]}))
        assert unit.session.new  # still pending
        assert await unit.first(KV_VALUE, {"scope": "test", "key": "k"}) == ({"a": [1, 2]},)
        assert not unit.session.new


async def test_dirty_orm_object_is_visible_to_a_later_prepared_select(vault: Vault) -> None:
    """A change to a loaded object is flushed before a prepared select, which sees the new value."""
    async with vault.transaction() as session:
        person = Person(display_name="Mira", created_at=WHEN)
        session.add(person)
    assert person.id is not None
    async with vault.unit() as unit:
        loaded = await unit.session.get(Person, person.id)
        assert loaded is not None and loaded.locale is None
        loaded.locale = "cs"
        assert await unit.first(PERSON_LOCALE, {"id": person.id}) == ("cs",)


async def test_pending_person_is_flushed_before_a_prepared_insert_referencing_it(vault: Vault) -> None:
    """Foreign keys find their rows: a roll inserted by a prepared statement may name a person the
    session has only just been given (its id comes from the autoflush)."""
    async with vault.unit() as unit:
        person = Person(display_name="Mira", created_at=WHEN)
        unit.session.add(person)
        await unit.session.flush()
        other = Person(display_name="Other", created_at=WHEN)
        unit.session.add(other)  # pending when the insert runs
        await unit.execute(ROLL_INSERT, roll_params("r1", person_id=person.id))
        assert other.id is not None  # flushed by the insert
        await unit.execute(ROLL_INSERT, roll_params("r2", person_id=other.id))
    assert await count(vault, RollLog, RollLog.person_id == other.id) == 1


# --- duplicate keys -------------------------------------------------------------------------------------


async def test_duplicate_roll_public_id_raises_sqlalchemy_integrity_error(vault: Vault) -> None:
    """A public id clash raises ``sqlalchemy.exc.IntegrityError`` (what the router retries on) on every
    engine, and the whole unit is rolled back."""
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("dup"))
    with pytest.raises(IntegrityError):
        async with vault.unit() as unit:
            await repo.enqueue(unit, "console", "main", {"text": "lost"}, now=WHEN)
            unit.session.add(KeyValue(scope="test", key="lost", value={}))
            await unit.execute(ROLL_INSERT, roll_params("dup", display_name="Second"))
    assert await count(vault, RollLog) == 1
    assert await count(vault, RollLog, RollLog.display_name == "Second") == 0
    assert await count(vault, OutboxRow) == 0
    assert await count(vault, KeyValue) == 0
    # The retry the router makes succeeds on the same vault.
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("fresh"))
    assert await count(vault, RollLog) == 2


async def test_duplicate_public_id_within_one_unit_raises_integrity_error(vault: Vault) -> None:
    """The clash is caught in the same unit too, and nothing of that unit is kept."""
    with pytest.raises(IntegrityError):
        async with vault.unit() as unit:
            await unit.execute(ROLL_INSERT, roll_params("dup"))
            await unit.execute(ROLL_INSERT, roll_params("dup"))
    assert await count(vault, RollLog) == 0


async def test_a_session_flush_error_fails_the_unit_and_the_vault_goes_on(vault: Vault) -> None:
    """A duplicate key found by the session's flush fails the unit: the prepared write before it is not
    kept, and the next unit on the same vault commits normally."""
    async with vault.transaction() as session:
        session.add(KeyValue(scope="test", key="k", value={"n": 1}))
    with pytest.raises(IntegrityError):
        async with vault.unit() as unit:
            await unit.execute(ROLL_INSERT, roll_params("r1"))
            unit.session.add(KeyValue(scope="test", key="k", value={"n": 2}))
            await unit.session.flush()
    assert await count(vault, RollLog) == 0
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("r2"))
        unit.session.add(KeyValue(scope="test", key="k2", value={}))
    assert await count(vault, RollLog) == 1
    assert await count(vault, KeyValue) == 2


# --- resolve_sender -------------------------------------------------------------------------------------


async def test_resolve_sender_creates_person_identity_and_channel_on_first_sight(vault: Vault) -> None:
    """First sight creates one person, its identity and the channel; the second finds the same rows."""
    async with vault.unit() as unit:
        person, link, channel = await resolve(unit, MIRA, MAIN)
    assert person.id is not None and person.display_name == "Mira"
    assert (link.key, link.person_id, link.platform, link.display_name, link.verified) == (
        "console:mira",
        person.id,
        "console",
        "Mira",
        True,
    )
    assert (channel.key, channel.platform, channel.settings) == ("console:main", "console", {})
    async with vault.unit() as unit:
        again = await resolve(unit, MIRA, MAIN)
    assert (again[0].id, again[1].key, again[2].key) == (person.id, link.key, channel.key)
    assert again[0].created_at == person.created_at and again[0].created_at.tzinfo is not None
    assert again[2].settings == {}
    assert await count(vault, Person) == 1
    assert await count(vault, IdentityLink) == 1
    assert await count(vault, ChannelRow) == 1


async def test_resolve_sender_new_channel_for_a_known_identity(vault: Vault) -> None:
    """A known identity in a channel never seen before: the person is found, the channel created."""
    async with vault.unit() as unit:
        person, _, _ = await resolve(unit, MIRA, MAIN)
    direct = Channel(platform="console", id="dm-mira", direct=True)
    async with vault.unit() as unit:
        found, _, channel = await resolve(unit, MIRA, direct)
    assert found.id == person.id
    assert (channel.key, channel.settings) == ("console:dm-mira", {"direct": True})
    assert await count(vault, Person) == 1
    assert await count(vault, ChannelRow) == 2


async def test_objects_from_resolve_sender_flush_changes_as_updates(vault: Vault) -> None:
    """The second ``resolve_sender`` (one prepared query) returns objects that, added to the unit's
    session, are tracked as loaded: changes become UPDATEs, never INSERTs, and are committed."""
    async with vault.unit() as unit:
        first, _, _ = await resolve(unit, MIRA, MAIN)
    sql = record_sql(vault)
    async with vault.unit() as unit:
        person, _, channel = await resolve(unit, MIRA, MAIN)
        session = unit.session
        session.add(person)
        person.locale = "cs"
        session.add(channel)
        channel.system = "nightcap"
    assert any(s.startswith("UPDATE person SET locale") for s in sql), sql
    assert any(s.startswith("UPDATE channel SET system") for s in sql), sql
    assert not any(s.startswith(("INSERT INTO person", "INSERT INTO channel")) for s in sql), sql
    async with vault.unit() as unit:
        person3, _, channel3 = await resolve(unit, MIRA, MAIN)
    assert (person3.id, person3.locale, person3.display_name) == (first.id, "cs", "Mira")
    assert person3.created_at == first.created_at  # the UPDATE touched only what changed
    assert channel3.system == "nightcap"
    assert await count(vault, Person) == 1


async def test_changes_made_before_the_session_opens_are_flushed_too(vault: Vault) -> None:
    """An attribute changed on a ``resolve_sender`` object before anything opened ``unit.session`` is
    still written when the session is opened later in the unit (the objects are attached to it)."""
    async with vault.unit() as unit:
        await resolve(unit, MIRA, MAIN)
    async with vault.unit() as unit:
        person, _, _ = await resolve(unit, MIRA, MAIN)
        person.locale = "de"
        unit.session.add(KeyValue(scope="test", key="k", value={}))
    async with vault.transaction() as session:
        stored = (await session.exec(select(Person))).one()
    assert stored.locale == "de"


async def test_resolve_sender_writes_a_changed_display_name_and_verified_flag(vault: Vault) -> None:
    """The platform's current display name and verification replace the stored ones on the identity."""
    async with vault.unit() as unit:
        person, _, _ = await resolve(unit, MIRA, MAIN)
    renamed = Identity(platform="console", id="mira", display_name="Mira Novak", verified=False)
    async with vault.unit() as unit:
        found, link, _ = await resolve(unit, renamed, MAIN)
    assert found.id == person.id
    assert (link.display_name, link.verified) == ("Mira Novak", False)
    async with vault.transaction() as session:
        row = await session.get(IdentityLink, "console:mira")
    assert row is not None and (row.display_name, row.verified, row.person_id) == (
        "Mira Novak",
        False,
        person.id,
    )


async def test_resolve_sender_identity_change_is_rolled_back_with_the_unit(vault: Vault) -> None:
    """The identity refresh is part of the unit: a failing unit leaves the old name."""
    async with vault.unit() as unit:
        await resolve(unit, MIRA, MAIN)
    renamed = Identity(platform="console", id="mira", display_name="Mira Novak")
    with pytest.raises(Boom):
        async with vault.unit() as unit:
            await resolve(unit, renamed, MAIN)
            raise Boom
    async with vault.transaction() as session:
        row = await session.get(IdentityLink, "console:mira")
    assert row is not None and row.display_name == "Mira"


# --- seen_message ---------------------------------------------------------------------------------------


async def test_seen_message_records_on_first_sight(vault: Vault) -> None:
    """False the first time (and recorded, in the unit and after it), True afterwards."""
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "discord", "m1") is False
        assert await repo.seen_message(unit, "discord", "m1") is True
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "discord", "m1") is True
        assert await repo.seen_message(unit, "matrix", "m1") is False  # per platform
        assert await repo.seen_message(unit, "discord", "m2") is False


async def test_seen_message_is_not_recorded_when_the_unit_fails(vault: Vault) -> None:
    """A message whose unit failed counts as unseen, so its redelivery runs."""
    with pytest.raises(Boom):
        async with vault.unit() as unit:
            assert await repo.seen_message(unit, "discord", "m1") is False
            raise Boom
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "discord", "m1") is False
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "discord", "m1") is True


async def test_seen_message_compares_long_ids_whole(vault: Vault) -> None:
    """Ids longer than the column are stored as a digest of the whole id: ids differing after 200
    characters stay apart (they collided when cut), and a repeat is still found."""
    long_id = "x" * 200
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "http", long_id + "-a") is False
    async with vault.unit() as unit:
        assert await repo.seen_message(unit, "http", long_id + "-b") is False
        assert await repo.seen_message(unit, "http", long_id + "-a") is True
    assert repo.message_key("short") == "short"
    assert len(repo.message_key(long_id + "-a")) <= 200


# --- Prepared -------------------------------------------------------------------------------------------


def _throwaway() -> Table:
    return Table(
        "throwaway",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("x", Integer, default=1),
        Column("y", Integer),
    )


def test_prepared_insert_refuses_to_leave_out_a_python_side_default() -> None:
    """An insert whose parameters leave out a column with a Python-side default is refused (the
    default would silently not run); given the column, it compiles."""
    table = _throwaway()
    prepared = Prepared(insert(table))
    dialect = sqlite.dialect()
    with pytest.raises(ValueError, match=r"\['x'\]"):
        prepared.compile(dialect, frozenset({"y"}))
    compiled = prepared.compile(dialect, frozenset({"x", "y"}))
    assert sorted(compiled.names) == ["x", "y"]
    assert compiled.sql.count("?") == 2
    assert compiled.parameters({"y": 7, "x": 3}) == [{"x": 3, "y": 7}[n] for n in compiled.names]


def test_prepared_literal_binds_take_their_places_among_the_parameters() -> None:
    """Literals in a statement (``status == "pending"``, a UTC datetime) need no parameter, and
    are converted once, like the parameters around them."""
    table = Table(
        "lit",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("status", String),
        Column("at", UTCDateTime()),
    )
    statement = select(table.c.id).where(
        table.c.status == "pending", table.c.id > bindparam("after"), table.c.at < WHEN
    )
    compiled = Prepared(statement).compile(sqlite.dialect(), frozenset({"after"}))
    assert compiled.parameters({"after": 7}) == ["pending", 7, "2026-11-30 20:00:00.000000"]
    assert compiled.parameters({"after": 8})[1] == 8  # each call starts from the literals again


def test_prepared_insert_refuses_an_unknown_column() -> None:
    """A misspelt parameter is an error, not a value silently left out of the row."""
    with pytest.raises(ValueError, match=r"unknown columns \['xx'\]"):
        Prepared(insert(_throwaway())).compile(sqlite.dialect(), frozenset({"x", "xx"}))


async def test_writes_after_a_caught_flush_error_are_refused(vault: Vault) -> None:
    """A failed flush rolls the unit's transaction back even when the handler catches the error;
    nothing written before or after it may be committed, on either engine."""
    async with vault.transaction() as session:
        session.add(KeyValue(scope="t", key="k", value={}))
    with pytest.raises(InvalidRequestError, match="rolled back by a failed flush"):
        async with vault.unit() as unit:
            await repo.enqueue(unit, "console", "before", {"text": "before"})
            unit.session.add(KeyValue(scope="t", key="k", value={}))
            with pytest.raises(IntegrityError):
                await unit.session.flush()
            await repo.enqueue(unit, "console", "after", {"text": "after"})
    async with vault.transaction() as session:
        assert (await session.exec(select(func.count()).select_from(OutboxRow))).one() == 0


def test_prepared_compile_is_cached_per_parameter_names() -> None:
    """The same parameter names reuse one compiled form; other names get their own."""
    prepared = Prepared(insert(_throwaway()))
    dialect = sqlite.dialect()
    first = prepared.compile(dialect, frozenset({"x", "y"}))
    assert prepared.compile(dialect, frozenset({"y", "x"})) is first
    with_id = prepared.compile(dialect, frozenset({"id", "x", "y"}))
    assert with_id is not first and sorted(with_id.names) == ["id", "x", "y"]


def test_prepared_row_converts_types_back_on_sqlite() -> None:
    """Run a prepared insert and select on a plain sqlite3 connection: the stored values are SQLite's
    raw types, and ``Compiled.row`` turns them back into a UTC-aware datetime, a dict and a bool."""
    table = Table(
        "typed",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("at", UTCDateTime(), nullable=False),
        Column("doc", JSON, nullable=False),
        Column("flag", Boolean, nullable=False),
        Column("name", String(20)),
    )
    dialect = sqlite.dialect()
    db = sqlite3.connect(":memory:")
    db.execute(str(CreateTable(table).compile(dialect=dialect)))
    at = datetime(2026, 11, 30, 22, 15, 30, 123456, tzinfo=timezone(timedelta(hours=2)))
    params = {"id": 1, "at": at, "doc": {"dice": [9, 5], "ok": True}, "flag": True, "name": "Mira"}
    ins = Prepared(insert(table)).compile(dialect, frozenset(params))
    db.execute(ins.sql, ins.parameters(params))
    query = Prepared(
        select(table.c.at, table.c.doc, table.c.flag, table.c.name, table.c.id).where(
            table.c.id == bindparam("id")
        )
    ).compile(dialect, frozenset({"id"}))
    raw = db.execute(query.sql, query.parameters({"id": 1})).fetchone()
    assert raw is not None
    assert [type(v) for v in raw[:3]] == [str, str, int]  # what SQLite hands back
    at_back, doc, flag, name, row_id = query.row(raw)
    assert at_back == at and at_back.tzinfo == UTC
    assert doc == {"dice": [9, 5], "ok": True}
    assert flag is True
    assert (name, row_id) == ("Mira", 1)
    db.execute(ins.sql, ins.parameters({**params, "id": 2, "flag": False, "name": None}))
    second = query.row(db.execute(query.sql, query.parameters({"id": 2})).fetchone())
    assert second[2] is False and second[3] is None
    db.close()


async def test_unit_first_converts_types_like_the_orm(vault: Vault) -> None:
    """``unit.first`` on a prepared select gives the same Python values the ORM does."""
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("r1", result={"id": "r1", "nested": {"a": 1}}))
    rolls = RollLog.__table__  # type: ignore[attr-defined]
    query = Prepared(
        select(rolls.c.created_at, rolls.c.result, rolls.c.dice, rolls.c.total).where(
            rolls.c.public_id == bindparam("id")
        )
    )
    async with vault.unit() as unit:
        row = await unit.first(query, {"id": "r1"})
        missing = await unit.first(query, {"id": "nope"})
    assert missing is None
    assert row == (WHEN, {"id": "r1", "nested": {"a": 1}}, [9, 5, 10], None)
    assert row[0].tzinfo == UTC


# --- nesting --------------------------------------------------------------------------------------------


async def test_units_do_not_nest(vault: Vault) -> None:
    """A unit opened inside a unit is refused at once (on SQLite it would otherwise wait forever for
    the write lock its own caller holds); the outer unit still commits, and units work afterwards."""
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("outer"))
        with pytest.raises(RuntimeError, match="do not nest"):
            async with asyncio.timeout(5), vault.unit():
                pass
        with pytest.raises(RuntimeError, match="do not nest"):
            async with asyncio.timeout(5), vault.transaction():
                pass
    assert await count(vault, RollLog, RollLog.public_id == "outer") == 1
    async with vault.unit() as unit:
        await unit.execute(ROLL_INSERT, roll_params("after"))
    assert await count(vault, RollLog) == 2


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2026, 11, 30, 20, 0, tzinfo=UTC),
        datetime(2026, 11, 30, 21, 0, 0, 450, tzinfo=timezone(timedelta(hours=1))),
        datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=UTC),
    ],
)
def test_utc_datetime_on_sqlite_stores_what_sqlalchemy_would(moment: datetime) -> None:
    """The one-step SQLite processors write SQLAlchemy's own DATETIME text and read it back aware."""
    dialect = sqlite.dialect()
    fast = UTCDateTime().dialect_impl(dialect)
    general = DateTime().dialect_impl(dialect)
    stored = fast.bind_processor(dialect)(moment)
    assert stored == general.bind_processor(dialect)(moment.astimezone(UTC).replace(tzinfo=None))
    read = fast.result_processor(dialect, None)
    assert read(stored) == moment
    assert read("2026-11-30 20:00:00") == datetime(2026, 11, 30, 20, tzinfo=UTC)
    with pytest.raises(ValueError):
        fast.bind_processor(dialect)(moment.replace(tzinfo=None))


async def test_the_sender_query_brings_the_house_rules_of_the_system_the_channel_plays(vault: Vault) -> None:
    from gateway.features.house_rules import store as house_store

    async with vault.unit() as unit:
        await resolve_sender(unit, MIRA, MAIN)  # the person and the channel (no system of its own)
        await unit.session.flush()
        await house_store.put(unit, MAIN.key, "nightcap", "botch", {"on": "ones"}, WHEN)
        await house_store.put(unit, MAIN.key, "nightcap", "again", 9, WHEN)
        await house_store.put(unit, MAIN.key, "dramatic", "again", 8, WHEN)
    async with vault.unit() as unit:
        found = await resolve_sender(unit, MIRA, MAIN, "nightcap")
        assert found.take_house_rules("dramatic") is None  # read for the system the channel plays
    async with vault.unit() as unit:
        found = await resolve_sender(unit, MIRA, MAIN, "nightcap")
        assert found.take_house_rules("nightcap") == {"botch": {"on": "ones"}, "again": 9}
        assert found.take_house_rules("nightcap") is None  # once: a later command reads them afresh
        found = await resolve_sender(unit, MIRA, MAIN, "pravidla")
        assert found.take_house_rules("pravidla") == {}  # none set: an empty set, no second read
        assert (await resolve_sender(unit, MIRA, MAIN)).take_house_rules("nightcap") is None
        found.channel.system = "dramatic"  # the channel's own system wins over the default
        await unit.session.flush()
        found = await resolve_sender(unit, MIRA, MAIN, "nightcap")
        assert found.take_house_rules("dramatic") == {"again": 8}
