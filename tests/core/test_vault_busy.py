"""A SQLite unit waits for the write lock with the event loop free. The lock's holder may be another
connection of this very process that needs the loop to finish (mautrix's crypto store, whose
transactions span awaits; a second gateway in one process): SQLite's own busy handler, sleeping
inside ``BEGIN IMMEDIATE`` on the loop, froze every task for the whole busy timeout and then failed
the unit with "database is locked" (the CI failure of the Matrix takeover test)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlmodel import select

from gateway.vault.engine import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import KeyValue

BUSY_MS = 1000


@pytest.fixture(params=[False, True], ids=["commit", "group_commit"])
async def vault(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Vault]:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    made = Vault(url, busy_timeout_ms=BUSY_MS, group_commit=request.param)
    await upgrade(made)
    yield made
    await made.dispose()


def other_connection(vault: Vault) -> sqlite3.Connection:
    """A second connection to the vault's file in this process, as mautrix's store opens one."""
    database = vault.engine.url.database
    assert database is not None
    return sqlite3.connect(database, isolation_level=None, check_same_thread=False)


async def hold_write_lock(connection: sqlite3.Connection, seconds: float, held: asyncio.Event) -> None:
    """Take the write lock and give it back after ``seconds`` of awaiting on the loop."""
    connection.execute("BEGIN IMMEDIATE")
    connection.execute(
        "INSERT INTO kv (scope, key, value, updated_at) VALUES ('other', 'k', '{}', '2026-12-02 00:00:00')"
    )
    held.set()
    await asyncio.sleep(seconds)
    connection.execute("COMMIT")


class LoopWatch:
    """The longest gap between ticks of a 5 ms ticker: how long anything held the loop."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._last = 0.0
        self._task: asyncio.Task[None] | None = None

    def _mark(self) -> None:
        now = asyncio.get_running_loop().time()
        self.longest = max(self.longest, now - self._last)
        self._last = now

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.005)
            self._mark()

    def __enter__(self) -> LoopWatch:
        self._last = asyncio.get_running_loop().time()
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        self._mark()  # the gap up to now counts too: the block may end inside the longest one


async def write(vault: Vault, key: str) -> None:
    async with vault.transaction() as session:
        session.add(KeyValue(scope="w", key=key, value={}))


async def keys(vault: Vault, scope: str) -> set[str]:
    async with vault.transaction() as session:
        return set((await session.exec(select(KeyValue.key).where(KeyValue.scope == scope))).all())


async def test_a_unit_waits_for_a_holder_on_its_own_loop_and_the_loop_stays_free(vault: Vault) -> None:
    await write(vault, "warm")  # the writer connection is open before the lock is taken
    other = other_connection(vault)
    held = asyncio.Event()
    holder = asyncio.create_task(hold_write_lock(other, 0.3, held))
    await asyncio.wait_for(held.wait(), 5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with LoopWatch() as watch:
        await write(vault, "after")
    waited = loop.time() - started
    await holder
    other.close()
    assert 0.25 <= waited < BUSY_MS / 1000  # it waited for the holder, not for the busy timeout
    assert watch.longest < 0.1  # the holder's own await could run meanwhile
    assert await keys(vault, "w") == {"warm", "after"}
    assert await keys(vault, "other") == {"k"}


async def test_a_lock_held_past_the_busy_timeout_fails_the_unit_cleanly_loop_free(vault: Vault) -> None:
    await write(vault, "warm")
    other = other_connection(vault)
    held = asyncio.Event()
    holder = asyncio.create_task(hold_write_lock(other, BUSY_MS / 1000 + 0.5, held))
    await asyncio.wait_for(held.wait(), 5)
    loop = asyncio.get_running_loop()
    started = loop.time()
    with LoopWatch() as watch, pytest.raises(sqlite3.OperationalError, match="locked"):
        await write(vault, "refused")
    waited = loop.time() - started
    assert BUSY_MS / 1000 <= waited < BUSY_MS / 1000 + 0.4
    assert watch.longest < 0.1
    await holder
    other.close()
    # Nothing of the refused unit was written, and the vault takes the next unit as usual.
    await write(vault, "next")
    assert await keys(vault, "w") == {"warm", "next"}
