"""Two gateway processes on one PostgreSQL vault: events and outbox wake-ups cross over NOTIFY."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import text

from gateway.core.app import Gateway
from gateway.core.events import Approved
from gateway.testing import start_chat
from gateway.vault import repo
from tests.core.test_events import eventually, gateway_with, recorder
from tests.core.test_outbox import Recorder


@pytest.fixture
async def pair(vault_url: str) -> AsyncIterator[tuple[Gateway, Gateway, Recorder]]:
    """A: no adapter (its rows wait for another process); B: the "fake" platform, polling hourly."""
    if vault_url.startswith("sqlite"):
        pytest.skip("two processes on one vault: PostgreSQL (on SQLite one process is the world)")
    first = (await start_chat(vault_url)).gateway
    adapter = Recorder()
    second = await gateway_with(vault_url, adapter)
    try:
        yield first, second, adapter
    finally:
        await second.stop()
        await first.stop()


async def commit_approved(gateway: Gateway, character_id: int) -> None:
    async with gateway.services.vault.unit() as unit:
        unit.record(Approved(character_id))


async def test_an_event_committed_in_one_process_reaches_the_other(pair: Any) -> None:
    first, second, _ = pair
    heard_first = recorder(first.services.events, Approved)
    heard_second = recorder(second.services.events, Approved)
    for n in range(3):
        await commit_approved(first, n)
    await eventually(lambda: len(heard_second) == 3, timeout=5.0)
    assert heard_second == [Approved(0), Approved(1), Approved(2)]
    await first.services.events.drain()
    assert heard_first == heard_second  # its own, once: not again from its own notice
    with pytest.raises(RuntimeError):
        async with first.services.vault.unit() as unit:
            unit.record(Approved(99))
            raise RuntimeError("rolled back: no notice")
    await commit_approved(first, 3)
    await eventually(lambda: len(heard_second) == 4, timeout=5.0)
    assert heard_second[-1] == Approved(3)


async def test_a_row_queued_in_one_process_is_sent_at_once_by_the_other(pair: Any) -> None:
    """A has no worker for the platform; B's worker polls hourly, so only A's notice can wake it."""
    first, _, adapter = pair
    await asyncio.sleep(0.1)  # B's worker looked once at start and found nothing
    async with first.services.vault.unit() as unit:
        await repo.enqueue(unit, "fake", "room", {"text": "from A"})
    await eventually(lambda: adapter.delivered == [("room", "from A")], timeout=5.0)


async def test_the_listener_reconnects_when_its_connection_drops(pair: Any) -> None:
    first, second, adapter = pair
    heard = recorder(second.services.events, Approved)
    listener = second.listener
    assert listener is not None and listener.backend_pid is not None
    old_pid = listener.backend_pid
    async with first.services.vault.transaction() as session:
        await session.exec(text(f"SELECT pg_terminate_backend({old_pid})"))  # type: ignore[call-overload]
    await eventually(lambda: listener.backend_pid not in (None, old_pid), timeout=10.0)
    await commit_approved(first, 1)
    await eventually(lambda: heard == [Approved(1)], timeout=5.0)
    async with first.services.vault.unit() as unit:
        await repo.enqueue(unit, "fake", "room", {"text": "after the drop"})
    await eventually(lambda: adapter.delivered == [("room", "after the drop")], timeout=5.0)
