"""The outbox under real conditions: a claim's cost with a backlog, a target that throttles or comes
back, deliveries slower than a lease, and waits that do not depend on a quiet machine."""

from __future__ import annotations

import asyncio
import re

from gateway.core.app import Gateway
from gateway.core.errors import Elsewhere, RetryLater, Throttled
from gateway.core.types import Outbound
from gateway.delivery.outbox import expedite
from gateway.testing import Clock
from tests.core.test_outbox import Recorder, enqueue, make, rows, wait_for
from tests.helpers.outbox_backlog import claim_cost, fill


async def test_a_claim_costs_the_same_with_a_backlog_ten_times_larger(vault_url: str) -> None:
    """A target down for a minute of load holds thousands of rows. One claim must not grow with them:
    the old claim ran a ``min(id)`` over the target's pending rows for each of them (quadratic)."""
    gateway = await make(vault_url, Recorder())
    vault = gateway.services.vault
    now = gateway.services.clock()
    await fill(vault, "fake", {f"room-{i}": 3 for i in range(20)}, now)
    costs = []
    for added in (1_000, 9_000):  # a backlog of 1,000 rows, then of 10,000
        await fill(vault, "fake", {"down": added}, now)
        work, found, plan = await claim_cost(vault, {"platform": "fake", "now": now})
        assert found == 21  # one head per target
        costs.append(work)
        assert "ix_outbox_queue" in plan, plan
        # PostgreSQL may hash-join a small table's heap instead of probing it row by row (its plan
        # at 10,000 rows; at 100,000 it probes, see tests.bench.outbox_claim): the work stays flat.
        assert vault.dialect != "sqlite" or "SCAN outbox" not in plan, plan
    await vault.dispose()
    assert costs[1] < costs[0] * 2, costs


class Throttling(Recorder):
    """Answers "wait a moment" a number of times, then delivers."""

    def __init__(self, throttles: int) -> None:
        super().__init__()
        self.throttles = throttles
        self.calls = 0

    async def deliver(self, message: Outbound) -> None:
        self.calls += 1
        if self.throttles:
            self.throttles -= 1
            raise Throttled("503, Retry-After 0", 0.0)
        await super().deliver(message)


async def test_throttling_is_not_a_failed_attempt(sqlite_url: str) -> None:
    """Twenty "retry after" answers use up none of the three attempts and leave no backoff behind."""
    adapter = Throttling(throttles=20)
    gateway = await make(sqlite_url, adapter)
    await enqueue(gateway, [("hud", "after-the-queue")])
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("hud", "after-the-queue")], timeout=60)
    finally:
        await gateway.stop()
    (row,) = await rows(gateway)
    assert (row.status, row.attempts, adapter.calls) == ("delivered", 1, 21)
    await gateway.services.vault.dispose()


async def test_failures_back_off_and_a_target_that_answers_again_is_served_at_once(vault_url: str) -> None:
    """After failures the row waits out a backoff; when the target shows it is back (a HUD that
    registers again), ``expedite`` makes its rows due and the worker sends them without waiting."""
    adapter = Recorder()
    adapter.script = {"first": [RetryLater("timeout")] * 2}
    clock = Clock()
    gateway = await make(vault_url, adapter, clock)
    gateway.settings.outbox.base_delay = 3600.0  # a failure means an hour's wait
    await enqueue(gateway, [("hud", "first"), ("hud", "second"), ("other", "meanwhile")])
    await gateway.start()
    try:
        await wait_for(lambda: ("other", "meanwhile") in adapter.delivered, timeout=60)
        await asyncio.sleep(0.3)
        assert ("hud", "first") not in adapter.delivered  # waiting out its backoff
        assert await answers_again(gateway, "hud") == 1  # the head; "second" waits behind it
        await wait_for(lambda: not adapter.script["first"], timeout=60)  # it failed once more
        await wait_for_rows_due_later(gateway)
        assert len(adapter.delivered) == 1
        assert await answers_again(gateway, "hud") == 1
        await wait_for(lambda: len(adapter.delivered) == 3, timeout=60)
    finally:
        await gateway.stop()
    assert [text for target, text in adapter.delivered if target == "hud"] == ["first", "second"]
    await gateway.services.vault.dispose()


async def answers_again(gateway: Gateway, target: str) -> int:
    """What the Second Life registry does when an object registers again."""
    async with gateway.services.vault.unit() as unit:
        count = await expedite(unit, "fake", [target], gateway.services.clock())
    assert gateway.outbox is not None and unit.queued == {"fake"}
    gateway.outbox.wake(unit.queued)
    return count


async def wait_for_rows_due_later(gateway: Gateway) -> None:
    """Until the failed row's retry is written (an hour ahead)."""
    now = gateway.services.clock()
    deadline = asyncio.get_running_loop().time() + 60
    while not any(
        r.status == "pending" and r.next_attempt_at > now and r.attempts == 2 for r in await rows(gateway)
    ):
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.02)


class Slow(Recorder):
    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds
        self.started: list[str] = []

    async def deliver(self, message: Outbound) -> None:
        self.started.append(message.text)
        await asyncio.sleep(self.seconds)
        await super().deliver(message)


async def test_a_delivery_longer_than_its_lease_is_not_claimed_by_another_worker(vault_url: str) -> None:
    """The lease is renewed while the delivery runs, so a second gateway on the same vault does not
    send the row again (a push timeout longer than the lease used to allow it)."""
    # A delivery of three leases. The lease is 1 s, not less: on a loaded machine (CI beside other
    # work) a 0.3 s lease could lapse between renewals for reasons that have nothing to do with this.
    left, right = Slow(3.0), Slow(3.0)
    one, two = await make(vault_url, left), await make(vault_url, right)
    for gateway in (one, two):
        gateway.settings.cluster.failover_seconds = 1.0  # the lease
    await enqueue(one, [("hud", "slow")])
    await one.start()
    try:
        await wait_for(lambda: left.started, timeout=60)
        await two.start()
        await wait_for(lambda: left.delivered, timeout=60)
        await asyncio.sleep(0.3)
    finally:
        await two.stop()
        await one.stop()
    assert (left.started, right.started) == (["slow"], [])
    await one.services.vault.dispose()
    await two.services.vault.dispose()


async def test_a_retried_row_keeps_the_vaults_timestamp_text_on_sqlite(sqlite_url: str) -> None:
    """SQLite compares timestamps as text, so every writer must store one format: the backoff written
    when a row is finished used to be stored as ``...+00:00`` (an untyped parameter), which sorts
    before ``....5`` of the same second."""
    adapter = Recorder()
    adapter.script["later"] = [RetryLater("not yet")]
    gateway = await make(sqlite_url, adapter)
    await enqueue(gateway, [("hud", "later")])
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("hud", "later")], timeout=60)
    finally:
        await gateway.stop()
    async with gateway.services.vault.unit() as unit:
        found = await unit.connection.exec_driver_sql("SELECT created_at, next_attempt_at FROM outbox")
        texts = found.all()
    await gateway.services.vault.dispose()
    pattern = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}")
    assert all(pattern.fullmatch(text) for row in texts for text in row), texts


async def test_a_row_another_process_delivers_is_handed_back_due_at_once(vault_url: str) -> None:
    """``Elsewhere`` (another process holds the connection the row needs): the row is not an attempt,
    stays due at once for the owner, and this process does not claim that target again for the
    delay, while it goes on serving its other targets."""
    adapter = Recorder()
    adapter.script["theirs"] = [Elsewhere("another process runs this network", 30.0)]
    gateway = await make(vault_url, adapter)
    await enqueue(gateway, [("net-b/#st", "theirs"), ("net-a/#game", "ours")])
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("net-a/#game", "ours")], timeout=60)
        await enqueue(gateway, [("net-a/#game", "ours again")])
        await wait_for(lambda: len(adapter.delivered) == 2, timeout=60)
        theirs, ours, again = await rows(gateway)
    finally:
        await gateway.stop()
    await gateway.services.vault.dispose()
    assert (theirs.status, theirs.attempts, theirs.claimed_until) == ("pending", 0, None)
    assert theirs.next_attempt_at <= gateway.services.clock()
    assert adapter.script["theirs"] == []  # tried once: looked away from it since
    assert (ours.status, again.status) == ("delivered", "delivered")
