"""``[vault] group_commit``: SQLite units commit without an fsync on the loop and return only after a
shared fsync of the WAL that began after their commit; concurrent units share fsyncs."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from gateway.vault import engine as engine_module
from gateway.vault.engine import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import KeyValue


@pytest.fixture
def fsyncs(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every WAL fsync; each takes 50 ms in its thread so units pile up behind it."""
    calls: list[str] = []
    real = engine_module._fsync_file
    gate = threading.Lock()

    def slow_fsync(path: str) -> None:
        with gate:
            calls.append(path)
            real(path)
            threading.Event().wait(0.05)

    monkeypatch.setattr(engine_module, "_fsync_file", slow_fsync)
    return calls


async def test_units_share_fsyncs_and_wait_for_one_after_their_commit(
    tmp_path: Path, fsyncs: list[str]
) -> None:
    path = tmp_path / "vault.db"
    vault = Vault(f"sqlite+aiosqlite:///{path}", group_commit=True)
    await upgrade(vault)
    fsyncs.clear()
    order: list[tuple[str, int]] = []

    async def unit(i: int) -> None:
        async with vault.transaction() as session:
            session.add(KeyValue(scope="t", key=str(i), value={"i": i}))
        # Back from the unit: an fsync that started after this commit has finished.
        order.append(("done", i))

    await asyncio.gather(*(unit(i) for i in range(20)))
    assert sorted(i for _, i in order) == list(range(20))
    assert 1 <= len(fsyncs) < 20  # shared, not one per unit
    assert set(fsyncs) == {f"{path}-wal"}
    async with vault.transaction() as session:
        assert len((await session.exec(select(KeyValue).where(KeyValue.scope == "t"))).all()) == 20
    await vault.dispose()
    # Committed with synchronous=NORMAL, readable by any other connection.
    with sqlite3.connect(path) as db:
        assert db.execute("select count(*) from kv where scope = 't'").fetchone() == (20,)


async def test_a_unit_waits_for_an_fsync_that_began_after_its_commit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", group_commit=True)
    await upgrade(vault)
    group = vault._group
    assert group is not None
    started: list[int] = []
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def blocking_fsync(path: str) -> None:
        started.append(group.committed)
        if not _on_the_loop():
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result()

    monkeypatch.setattr(engine_module, "_fsync_file", blocking_fsync)
    first = asyncio.create_task(_write(vault, "a", "a2"))  # two units: their fsync runs in a thread
    while not started:
        await asyncio.sleep(0.001)
    second = asyncio.create_task(_write(vault, "b"))  # commits while the first fsync is running
    await asyncio.sleep(0.05)
    assert not first.done() and not second.done()
    release.set()
    await asyncio.gather(first, second)
    # The second unit's commit came after the first fsync started, so a second fsync covered it.
    assert started == [started[0], started[0] + 1]
    await vault.dispose()


def _on_the_loop() -> bool:
    """Whether an fsync runs on the loop's own thread (none should), where a test must not block."""
    return threading.current_thread() is threading.main_thread()


async def _write(vault: Vault, key: str, *more: str) -> None:
    if more:
        await asyncio.gather(*(_write(vault, k) for k in (key, *more)))
        return
    async with vault.transaction() as session:
        session.add(KeyValue(scope="w", key=key, value={}))


async def test_off_by_default_and_full_sync(tmp_path: Path) -> None:
    vault = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}")
    assert vault._group is None
    async with vault.engine.connect() as conn:
        synchronous = (await conn.exec_driver_sql("PRAGMA synchronous")).scalar()
    assert synchronous == 2  # FULL
    await vault.dispose()
    grouped = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault2.db'}", group_commit=True)
    async with grouped.engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA synchronous")).scalar() == 1  # NORMAL
    await grouped.dispose()


# --- units that end during an fsync share one transaction ------------------------------------------------


class Boom(Exception):
    """Raised inside a unit to make it fail."""


@pytest.fixture
async def held_fsync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[tuple[Vault, asyncio.Event, list[str]]]:
    """A group-commit vault whose WAL fsyncs wait for ``release``, and the COMMITs its writer runs."""
    vault = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", group_commit=True)
    await upgrade(vault)
    release = asyncio.Event()
    loop = asyncio.get_running_loop()

    def held(path: str) -> None:
        if not _on_the_loop():
            asyncio.run_coroutine_threadsafe(release.wait(), loop).result()

    monkeypatch.setattr(engine_module, "_fsync_file", held)
    _, driver = await vault._sqlite_writer()
    commits: list[str] = []
    driver.sqlite.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    yield vault, release, commits
    release.set()
    await vault.dispose()


async def _saved_keys(vault: Vault, scope: str) -> set[str]:
    with sqlite3.connect(vault.engine.url.database or "") as db:
        return {key for (key,) in db.execute("select key from kv where scope = ?", (scope,))}


async def _started_fsync(vault: Vault) -> asyncio.Task[None]:
    """Two units whose commit starts an fsync (in a thread) that runs until the test releases it."""
    task = asyncio.create_task(_write(vault, "first", "first2"))
    group = vault._group
    assert group is not None
    while not group.syncing:
        await asyncio.sleep(0.001)
    return task


async def test_units_ending_during_an_fsync_commit_together_once_it_ends(
    held_fsync: tuple[Vault, asyncio.Event, list[str]],
) -> None:
    vault, release, commits = held_fsync
    first = await _started_fsync(vault)
    assert commits == ["COMMIT"]
    rest = [asyncio.create_task(_write(vault, f"k{i}")) for i in range(10)]
    await asyncio.sleep(0.05)
    # Ten units ended; none committed on its own, none returned, nothing of theirs is on disk yet.
    assert commits == ["COMMIT"]
    assert not any(task.done() for task in rest)
    assert await _saved_keys(vault, "w") == {"first", "first2"}
    release.set()
    await asyncio.gather(first, *rest)
    assert commits == ["COMMIT", "COMMIT"]
    assert await _saved_keys(vault, "w") == {"first", "first2"} | {f"k{i}" for i in range(10)}


async def test_a_failing_unit_in_a_shared_transaction_rolls_back_only_itself(
    held_fsync: tuple[Vault, asyncio.Event, list[str]],
) -> None:
    vault, release, _ = held_fsync
    first = await _started_fsync(vault)

    async def failing() -> None:
        async with vault.transaction() as session:
            session.add(KeyValue(scope="w", key="failed", value={}))
            await session.flush()
            raise Boom

    async def duplicate() -> None:
        # The session's flush fails on the key "first": SQLAlchemy rolls back, and only this unit goes.
        async with vault.transaction() as session:
            session.add(KeyValue(scope="w", key="dup-side", value={}))
            session.add(KeyValue(scope="w", key="first", value={}))

    before = asyncio.create_task(_write(vault, "before"))
    bad = asyncio.create_task(failing())
    dup = asyncio.create_task(duplicate())
    after = asyncio.create_task(_write(vault, "after"))
    await asyncio.sleep(0.05)
    with pytest.raises(Boom):
        await bad  # a failed unit has nothing to wait for
    with pytest.raises(IntegrityError):
        await dup
    release.set()
    await asyncio.gather(first, before, after)
    assert await _saved_keys(vault, "w") == {"first", "first2", "before", "after"}


async def test_a_unit_cancelled_while_it_waits_does_not_hold_up_the_others(
    held_fsync: tuple[Vault, asyncio.Event, list[str]],
) -> None:
    vault, release, _ = held_fsync
    first = await _started_fsync(vault)
    gone = asyncio.create_task(_write(vault, "gone"))
    kept = asyncio.create_task(_write(vault, "kept"))
    await asyncio.sleep(0.02)
    gone.cancel()
    release.set()
    await asyncio.gather(first, kept)
    # The cancelled caller stopped waiting, but its unit had ended: its work is saved with the rest.
    assert await _saved_keys(vault, "w") == {"first", "first2", "gone", "kept"}


async def test_a_shared_transaction_commits_once_it_holds_chain_max_units(
    held_fsync: tuple[Vault, asyncio.Event, list[str]],
) -> None:
    vault, release, commits = held_fsync
    first = await _started_fsync(vault)
    rest = [asyncio.create_task(_write(vault, f"k{i}")) for i in range(engine_module.CHAIN_MAX + 3)]
    await asyncio.sleep(0.05)
    assert commits == ["COMMIT", "COMMIT"]  # the CHAIN_MAX-th unit committed without waiting
    release.set()
    await asyncio.gather(first, *rest)
    assert len(await _saved_keys(vault, "w")) == engine_module.CHAIN_MAX + 5


async def test_group_commit_checkpoints_the_wal_from_its_own_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(engine_module, "CHECKPOINT_EVERY", 0.0)
    path = tmp_path / "vault.db"
    vault = Vault(f"sqlite+aiosqlite:///{path}", group_commit=True)
    await upgrade(vault)
    _, driver = await vault._sqlite_writer()
    assert driver.sqlite.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)  # never inside a COMMIT
    group = vault._group
    assert group is not None

    async def checkpointed() -> None:
        while group._checkpoint is not None:
            await asyncio.sleep(0.01)

    for i in range(4):
        await _write(vault, f"c{i}")
    await checkpointed()
    await _write(vault, "c4")  # its fsync finds no checkpoint running, so one starts after it
    await checkpointed()
    # The database file alone (no WAL beside it) holds the rows: they were copied back from the WAL.
    copy = tmp_path / "copy.db"
    copy.write_bytes(path.read_bytes())
    with sqlite3.connect(copy) as db:
        assert db.execute("select count(*) from kv where scope = 'w'").fetchone() == (5,)
    await vault.dispose()


async def test_units_ending_in_one_turn_of_the_loop_share_one_commit(tmp_path: Path) -> None:
    vault = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", group_commit=True)
    await upgrade(vault)
    _, driver = await vault._sqlite_writer()
    commits: list[str] = []
    driver.sqlite.set_trace_callback(lambda sql: commits.append(sql) if sql == "COMMIT" else None)
    # No fsync is running: the ten units run one after another in the same turn of the event loop.
    await asyncio.gather(*(_write(vault, f"t{i}") for i in range(10)))
    assert commits == ["COMMIT"]
    assert await _saved_keys(vault, "w") == {f"t{i}" for i in range(10)}
    await _write(vault, "alone")
    assert commits == ["COMMIT", "COMMIT"]
    await vault.dispose()


async def test_every_fsync_runs_off_the_loop_a_lone_unit_s_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    vault = Vault(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", group_commit=True)
    await upgrade(vault)
    real = engine_module._fsync_file
    where: list[bool] = []

    def recorded(path: str) -> None:
        where.append(_on_the_loop())
        real(path)

    monkeypatch.setattr(engine_module, "_fsync_file", recorded)
    await _write(vault, "alone")
    assert where == [False]  # on the loop it would hold every other request for the disk's time
    await _write(vault, "one", "two", "three")
    assert where == [False, False]  # one fsync for the three, off the loop
    assert await _saved_keys(vault, "w") == {"alone", "one", "two", "three"}
    await vault.dispose()


async def test_the_fsync_thread_reports_failures_ends_when_idle_and_starts_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gateway.vault import engine

    wal = tmp_path / "vault.db-wal"
    wal.write_bytes(b"frames")
    syncer = engine._SyncThread(str(wal))
    monkeypatch.setattr(syncer, "IDLE", 0.05)
    await syncer.sync()
    first = syncer._thread
    assert first is not None and first.is_alive()
    await asyncio.sleep(0.3)  # idle past IDLE: the thread is gone
    assert syncer._thread is None and not first.is_alive()

    def broken(path: str) -> None:
        raise OSError(5, "Input/output error", path)

    monkeypatch.setattr(engine, "_fsync_file", broken)
    with pytest.raises(OSError, match="Input/output error"):
        await syncer.sync()  # a new thread, and the unit waiting on it hears of the failure
    monkeypatch.undo()
    await syncer.sync()
    second = syncer._thread
    assert second is not None and second is not first
    syncer.close()
    second.join(timeout=2)
    assert not second.is_alive()
