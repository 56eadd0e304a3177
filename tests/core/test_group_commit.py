"""``[vault] group_commit``: SQLite units commit without an fsync on the loop and return only after a
shared fsync of the WAL that began after their commit; concurrent units share fsyncs."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest
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
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result()

    monkeypatch.setattr(engine_module, "_fsync_file", blocking_fsync)
    first = asyncio.create_task(_write(vault, "a"))
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


async def _write(vault: Vault, key: str) -> None:
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
