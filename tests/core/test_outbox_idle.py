"""An idle outbox worker sleeps instead of claiming every ``poll_interval`` (issue 36, item 4): it
claims when a unit of this process queues rows, when its next row falls due, and (SQLite) when another
process has committed to the vault, seen through ``PRAGMA data_version`` without a transaction."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.errors import RetryLater
from gateway.core.hookspecs import hookimpl
from gateway.core.registry import AdapterSpec
from gateway.delivery.pacing import Backoff
from gateway.vault import Vault, repo
from tests.core.test_outbox import FakePlugin, Recorder, enqueue, make, settings_for, wait_for


class OtherRecorder(Recorder):
    platform = "fake2"


class OtherPlugin:
    def __init__(self, adapter: Recorder) -> None:
        self.adapter = adapter

    @hookimpl
    def gateway_register_adapters(self, register: Callable[[AdapterSpec], None]) -> None:
        register(AdapterSpec(platform="fake2", build=lambda services, section: self.adapter))


def count_claims(gateway: Gateway) -> list[int]:
    """How many claims the gateway's outbox makes, from now on (``[0]``)."""
    outbox = gateway.services.outbox
    original = outbox._claim
    calls = [0]

    async def counted(platform: str) -> Any:
        calls[0] += 1
        return await original(platform)

    outbox._claim = counted  # type: ignore[method-assign]
    return calls


async def test_an_idle_worker_does_not_poll(sqlite_url: str) -> None:
    adapter = Recorder()
    gateway = await make(sqlite_url, adapter)  # poll_interval 0.05: polling would claim 20 times a second
    calls = count_claims(gateway)
    await gateway.start()
    try:
        await asyncio.sleep(0.3)
        before = calls[0]
        await asyncio.sleep(2.0)
        idle_claims = calls[0] - before
        await enqueue(gateway, [("a", "woken")])  # this process's commit wakes the worker at once
        await wait_for(lambda: adapter.delivered == [("a", "woken")])
    finally:
        await gateway.stop()
    assert idle_claims <= 2, idle_claims  # heartbeats and lease renewals may write; nothing else
    await gateway.services.vault.dispose()


async def test_a_row_waiting_out_its_backoff_is_claimed_when_due(sqlite_url: str) -> None:
    adapter = Recorder()
    adapter.script = {"later": [RetryLater("refused", backoff=Backoff(0.4, 0.4, (1.0, 1.0)))]}
    gateway = await make(sqlite_url, adapter)
    calls = count_claims(gateway)
    await enqueue(gateway, [("a", "later")])
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("a", "later")])
    finally:
        await gateway.stop()
    assert calls[0] <= 6, calls[0]  # the failed round, a look after, the due one; not 8 polls
    await gateway.services.vault.dispose()


async def test_rows_another_process_queued_are_delivered(sqlite_url: str) -> None:
    """No event reaches this process from another one on SQLite: the vault's data_version does."""
    adapter = Recorder()
    gateway = await make(sqlite_url, adapter)
    other = Vault(sqlite_url)  # another process's connection to the same file
    await gateway.start()
    try:
        await asyncio.sleep(0.2)
        async with other.unit() as unit:
            await repo.enqueue(unit, "fake", "a", {"text": "from elsewhere"}, now=gateway.services.clock())
        await wait_for(lambda: adapter.delivered == [("a", "from elsewhere")], timeout=10)
    finally:
        await gateway.stop()
        await other.dispose()
    await gateway.services.vault.dispose()


async def test_each_worker_sees_another_processs_rows_for_its_platform(sqlite_url: str) -> None:
    """Two platforms, so two idle workers watching one vault: a commit that wakes one must not be
    used up before the other has looked."""
    first, second = Recorder(), OtherRecorder()
    gateway = Gateway(
        settings_for(sqlite_url),
        dice=ScriptedDice([]),
        extra_plugins=[FakePlugin(first), OtherPlugin(second)],
        platforms=("fake", "fake2"),
    )
    await gateway.upgrade_vault()
    other = Vault(sqlite_url)
    await gateway.start()
    try:
        await asyncio.sleep(0.2)
        async with other.unit() as unit:
            await repo.enqueue(unit, "fake", "a", {"text": "one"}, now=gateway.services.clock())
            await repo.enqueue(unit, "fake2", "b", {"text": "two"}, now=gateway.services.clock())
        await wait_for(lambda: first.delivered == [("a", "one")] and second.delivered == [("b", "two")], 10)
    finally:
        await gateway.stop()
        await other.dispose()
    await gateway.services.vault.dispose()
