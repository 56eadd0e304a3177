"""The transactional outbox: delivery in order per target, retries, dead letters, restarts, two workers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from sqlmodel import select

from gateway.core.adapter import Adapter
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.errors import DeliveryFailed, RetryLater
from gateway.core.hookspecs import hookimpl
from gateway.core.registry import AdapterSpec
from gateway.core.settings import Settings
from gateway.core.types import Outbound
from gateway.delivery.outbox import Outbox
from gateway.testing import Clock
from gateway.vault import repo
from gateway.vault.models import OutboxRow


class Recorder(Adapter):
    platform = "fake"

    def __init__(self) -> None:
        self.delivered: list[tuple[str, str]] = []
        self.script: dict[str, list[Exception]] = {}
        self.active = 0
        self.max_active_per_target: dict[str, int] = {}
        self._per_target: dict[str, int] = {}

    async def deliver(self, message: Outbound) -> None:
        self._per_target[message.target] = self._per_target.get(message.target, 0) + 1
        peak = max(self.max_active_per_target.get(message.target, 0), self._per_target[message.target])
        self.max_active_per_target[message.target] = peak
        try:
            await asyncio.sleep(0.001)
            failures = self.script.get(message.text)
            if failures:
                raise failures.pop(0)
            self.delivered.append((message.target, message.text))
        finally:
            self._per_target[message.target] -= 1


class FakePlugin:
    def __init__(self, adapter: Recorder) -> None:
        self.adapter = adapter

    @hookimpl
    def gateway_register_adapters(self, register: Callable[[AdapterSpec], None]) -> None:
        register(AdapterSpec(platform="fake", build=lambda services, section: self.adapter))


def settings_for(url: str) -> Settings:
    return Settings(vault={"url": url}, outbox={"poll_interval": 0.05, "base_delay": 0.01, "max_attempts": 3})


async def make(url: str, adapter: Recorder, clock: Clock | None = None) -> Gateway:
    gateway = Gateway(
        settings_for(url),
        dice=ScriptedDice([]),
        extra_plugins=[FakePlugin(adapter)],
        platforms=("fake",),
        **({"clock": clock} if clock else {}),
    )
    await gateway.upgrade_vault()
    return gateway


async def enqueue(gateway: Gateway, items: list[tuple[str, str]]) -> None:
    async with gateway.services.vault.transaction() as session:
        for target, text in items:
            await repo.enqueue(session, "fake", target, {"text": text}, now=gateway.services.clock())


async def rows(gateway: Gateway) -> list[OutboxRow]:
    async with gateway.services.vault.transaction() as session:
        return list((await session.exec(select(OutboxRow).order_by(OutboxRow.id))).all())


async def wait_for(predicate: Callable[[], Any], timeout: float = 60) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_in_order_per_target_and_concurrent_across(vault_url: str) -> None:
    adapter = Recorder()
    gateway = await make(vault_url, adapter)
    await enqueue(gateway, [(t, f"{t}-{i}") for i in range(5) for t in ("a", "b", "c")])
    await gateway.start()
    try:
        await wait_for(lambda: len(adapter.delivered) == 15)
    finally:
        await gateway.stop()
    for target in "abc":
        assert [text for t, text in adapter.delivered if t == target] == [f"{target}-{i}" for i in range(5)]
        assert adapter.max_active_per_target[target] == 1
    assert {r.status for r in await rows(gateway)} == {"delivered"}
    await gateway.services.vault.dispose()


async def test_retry_keeps_order_and_dead_letters_stay(sqlite_url: str) -> None:
    adapter = Recorder()
    adapter.script = {
        "flaky": [RetryLater("503"), RetryLater("503")],
        "gone": [DeliveryFailed("404 webhook deleted")],
    }
    gateway = await make(sqlite_url, adapter)
    await enqueue(gateway, [("a", "flaky"), ("a", "after-flaky"), ("b", "gone"), ("b", "after-gone")])
    await gateway.start()
    try:
        await wait_for(lambda: len(adapter.delivered) == 3)
    finally:
        await gateway.stop()
    assert [text for t, text in adapter.delivered if t == "a"] == ["flaky", "after-flaky"]
    by_text = {r.payload["text"]: r for r in await rows(gateway)}
    assert (by_text["flaky"].status, by_text["flaky"].attempts) == ("delivered", 3)
    assert (by_text["gone"].status, by_text["gone"].last_error) == ("dead", "404 webhook deleted")
    assert by_text["after-gone"].status == "delivered"
    await gateway.services.vault.dispose()


async def test_rows_written_while_down_are_delivered_after_restart(sqlite_url: str) -> None:
    first = Recorder()
    gateway = await make(sqlite_url, first)
    await enqueue(gateway, [("a", "one")])
    await gateway.start()
    await wait_for(lambda: first.delivered == [("a", "one")])
    await gateway.stop()
    # While nothing runs, more rows land (another process, or a crash before delivery).
    offline = await make(sqlite_url, Recorder())
    await enqueue(offline, [("a", "two"), ("a", "three")])
    await offline.services.vault.dispose()
    second = Recorder()
    restarted = await make(sqlite_url, second)
    await restarted.start()
    try:
        await wait_for(lambda: len(second.delivered) == 2)
    finally:
        await restarted.stop()
    assert second.delivered == [("a", "two"), ("a", "three")]


async def test_two_gateways_share_one_vault_without_double_delivery(vault_url: str) -> None:
    left, right = Recorder(), Recorder()
    one, two = await make(vault_url, left), await make(vault_url, right)
    await enqueue(one, [(f"t{i % 7}", f"m{i}") for i in range(70)])
    await one.start()
    await two.start()
    try:
        await wait_for(lambda: len(left.delivered) + len(right.delivered) == 70)
        await asyncio.sleep(0.2)
    finally:
        await one.stop()
        await two.stop()
    texts = [text for _, text in left.delivered + right.delivered]
    assert sorted(texts) == sorted(f"m{i}" for i in range(70))
    assert len(set(texts)) == 70


def record_claims(outbox: Outbox) -> list[int]:
    """The number of rows each claim query of ``outbox`` returned, in order (empty claims too)."""
    claims: list[int] = []
    real_claim = outbox._claim

    async def counting_claim(platform: str) -> list[Outbound]:
        rows = await real_claim(platform)
        claims.append(len(rows))
        return rows

    outbox._claim = counting_claim  # type: ignore[method-assign]
    return claims


async def test_a_command_wakes_only_the_workers_it_queued_rows_for(sqlite_url: str) -> None:
    """With a poll interval far beyond the test, a Storyteller-log line for ``fake`` still goes out at
    once (the router wakes that worker after the commit); a command that queues nothing wakes no one,
    so no worker runs a claim query for it."""
    from gateway.core.types import Channel, Identity, InboundMessage

    adapter = Recorder()
    settings = Settings(
        vault={"url": sqlite_url},
        outbox={"poll_interval": 3600},
        stlog={"targets": ["fake:st-room"]},
    )
    gateway = Gateway(
        settings, dice=ScriptedDice([]), extra_plugins=[FakePlugin(adapter)], platforms=("fake",)
    )
    await gateway.upgrade_vault()
    await gateway.start()
    outbox = gateway.outbox
    assert outbox is not None
    claims = record_claims(outbox)
    try:
        await asyncio.sleep(0.05)  # the start-up poll has run; the worker waits for a wake now
        claims.clear()
        mira = Identity("console", "mira", "Mira")
        await gateway.services.handle(InboundMessage(mira, Channel("console", "main"), "help"))
        await asyncio.sleep(0.05)
        assert claims == []  # help queues nothing: no claim query, not even an empty one
        gateway.services.dice.extend([9, 5, 10])  # type: ignore[attr-defined]
        await gateway.services.handle(InboundMessage(mira, Channel("console", "main"), "roll 3"))
        await wait_for(lambda: len(adapter.delivered) == 1)
        assert adapter.delivered[0][0] == "st-room" and claims
    finally:
        await gateway.stop()
    await gateway.services.vault.dispose()


async def test_a_busy_worker_lingers_so_one_claim_serves_rows_queued_meanwhile(sqlite_url: str) -> None:
    """After a round that delivered something the worker waits ``linger`` before claiming again, so
    rows queued in that moment go out from one claim instead of one claim each."""
    adapter = Recorder()
    gateway = Gateway(
        Settings(vault={"url": sqlite_url}, outbox={"poll_interval": 3600, "linger": 0.3}),
        dice=ScriptedDice([]),
        extra_plugins=[FakePlugin(adapter)],
        platforms=("fake",),
    )
    await gateway.upgrade_vault()
    outbox = gateway.outbox
    assert outbox is not None
    claims = record_claims(outbox)
    await gateway.start()
    try:
        await enqueue(gateway, [("a", "first")])
        outbox.wake(["fake"])
        await wait_for(lambda: adapter.delivered == [("a", "first")])
        for target, text in [("b", "one"), ("c", "two"), ("d", "three")]:  # one by one, while it lingers
            await enqueue(gateway, [(target, text)])
            outbox.wake(["fake"])
            await asyncio.sleep(0.03)
        await wait_for(lambda: len(adapter.delivered) == 4)
    finally:
        await gateway.stop()
    await gateway.services.vault.dispose()
    assert [n for n in claims if n] == [1, 3]


async def test_delivered_rows_are_pruned_after_keep_delivered_hours_dead_rows_stay(vault_url: str) -> None:
    adapter = Recorder()
    adapter.script = {"gone": [DeliveryFailed("404")]}
    clock = Clock()
    gateway = await make(vault_url, adapter, clock)
    await enqueue(gateway, [("a", "old"), ("b", "gone")])
    await gateway.start()
    try:
        await wait_for(lambda: len(adapter.delivered) == 1)
        await wait_for_rows(gateway, {"old": "delivered", "gone": "dead"})
        clock.advance(hours=23)
        await enqueue(gateway, [("a", "new")])
        await wait_for(lambda: len(adapter.delivered) == 2)
        await wait_for_rows(gateway, {"old": "delivered", "gone": "dead", "new": "delivered"})
        clock.advance(hours=2)  # "old" was delivered 25 hours ago, "new" 2 hours ago
        assert gateway.outbox is not None
        assert await gateway.outbox.prune() == 1
    finally:
        await gateway.stop()
    assert {r.payload["text"]: r.status for r in await rows(gateway)} == {"gone": "dead", "new": "delivered"}
    await gateway.services.vault.dispose()


async def wait_for_rows(gateway: Gateway, statuses: dict[str, str], timeout: float = 60) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while {r.payload["text"]: r.status for r in await rows(gateway)} != statuses:
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)
