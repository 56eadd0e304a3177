"""gateway/delivery/pacing.py: backoff and token buckets with scripted randomness and time, and how the outbox
counts what an adapter raises (a failed attempt, or a wait that is not one)."""

from __future__ import annotations

import asyncio
import math
import random
from datetime import UTC

import pytest

from gateway.core.errors import RetryLater, TargetAbsent, Throttled
from gateway.delivery.pacing import Backoff, KeyedBuckets, Streak, TokenBucket
from gateway.testing import Clock
from tests.core.test_outbox import Recorder, enqueue, make, rows, wait_for


class Scripted(random.Random):
    """``uniform`` answers the low end, the middle, the high end, in turn: the jitter range shows."""

    def __init__(self) -> None:
        super().__init__(0)
        self.turn = 0

    def uniform(self, a: float, b: float) -> float:
        self.turn += 1
        return (a, (a + b) / 2, b)[(self.turn - 1) % 3]


def test_backoff_doubles_from_base_up_to_the_cap() -> None:
    backoff = Backoff(1.0, 10.0, (1.0, 1.0))
    assert [backoff.delay(n) for n in range(1, 7)] == [1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    assert backoff.delay(0) == 1.0  # no failure yet counts as the first
    assert backoff.delay(10_000) == 10.0  # no overflow however long it failed


def test_backoff_jitter_stays_in_its_range() -> None:
    backoff = Backoff(4.0, 300.0, (0.5, 1.5), Scripted())
    assert [backoff.delay(1) for _ in range(3)] == [2.0, 4.0, 6.0]
    seeded = Backoff(1.0, 60.0, (0.5, 1.0), random.Random(3))
    for n in range(1, 12):
        assert seeded.step(n) / 2 <= seeded.delay(n) <= seeded.step(n)


def test_a_streak_counts_failures_in_a_row_until_a_success() -> None:
    streak = Streak(Backoff(1.0, 5.0, (1.0, 1.0)))
    assert [streak.next() for _ in range(5)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    streak.reset()
    assert streak.next() == 1.0
    for _ in range(10_000):  # a loop that failed for days neither overflows nor exceeds the cap
        streak.next()
    assert streak.next() == 5.0


def test_capped_lowers_the_ceiling_only() -> None:
    backoff = Backoff(1.0, 300.0)
    assert backoff.capped(4.0).cap == 4.0
    assert backoff.capped(1000.0).cap == 300.0
    assert backoff.capped(4.0).jitter == backoff.jitter


def test_backoff_refuses_nonsense() -> None:
    with pytest.raises(ValueError):
        Backoff(0.0, 1.0)
    with pytest.raises(ValueError):
        Backoff(1.0, 1.0, (1.5, 0.5))


def test_token_bucket_burst_then_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(3, 0.5, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take() == pytest.approx(2.0)  # one token per 2 s; nothing spent
    now[0] += 1.0
    assert bucket.take() == pytest.approx(1.0)
    now[0] += 1.0
    assert bucket.take() == 0.0
    now[0] += 100.0  # a long pause refills to the burst, not beyond
    assert [bucket.take() for _ in range(4)][-1] == pytest.approx(2.0)


def test_token_bucket_infinite_rate_never_waits() -> None:
    bucket = TokenBucket(1, math.inf, clock=lambda: 0.0)
    assert [bucket.take() for _ in range(5)] == [0.0] * 5


async def test_token_bucket_wait_sleeps_until_a_token_is_there() -> None:
    now = [0.0]
    sleeps: list[float] = []

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        now[0] += seconds

    bucket = TokenBucket(2, 1.0, clock=lambda: now[0], sleep=sleep)
    for _ in range(4):
        await bucket.wait()
    assert sleeps == [pytest.approx(1.0), pytest.approx(1.0)]
    bucket.reset()
    await bucket.wait()
    assert len(sleeps) == 2  # a reset bucket is full again


def test_keyed_buckets_are_per_key_and_bounded() -> None:
    now = [0.0]
    buckets = KeyedBuckets(2, 1.0, clock=lambda: now[0], max_keys=3)
    assert [buckets.take("a") for _ in range(3)] == [0.0, 0.0, pytest.approx(1.0)]
    assert buckets.take("b") == 0.0  # another key has its own bucket
    buckets.take("c")
    now[0] += 0.5  # none has refilled to full yet: all four are kept past max_keys
    buckets.take("d")
    assert len(buckets) == 4
    now[0] += 10.0  # every bucket is full again: past max_keys they are dropped, like new ones
    buckets.take("e")
    assert len(buckets) == 1
    assert buckets.take("a") == 0.0


# -- what the outbox does with each kind -----------------------------------------------------------


async def test_failed_attempts_go_dead_at_max_attempts_with_the_adapters_backoff(sqlite_url: str) -> None:
    adapter = Recorder()
    fast = Backoff(0.01, 0.01)
    adapter.script = {"timeout": [RetryLater("timed out", backoff=fast) for _ in range(10)]}
    gateway = await make(sqlite_url, adapter)  # max_attempts = 3 (set for the test)
    await enqueue(gateway, [("a", "timeout"), ("a", "behind")])
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("a", "behind")])
    finally:
        await gateway.stop()
    by_text = {r.payload["text"]: r for r in await rows(gateway)}
    assert (by_text["timeout"].status, by_text["timeout"].attempts) == ("dead", 3)
    assert len(adapter.script["timeout"]) == 7
    await gateway.services.vault.dispose()


async def test_the_adapters_backoff_sets_the_next_attempt(sqlite_url: str) -> None:
    adapter = Recorder()
    adapter.script = {"slow": [RetryLater("timed out", backoff=Backoff(100.0, 100.0, (1.0, 1.0)))]}
    gateway = await make(sqlite_url, adapter)
    await enqueue(gateway, [("a", "slow")])
    await gateway.start()
    try:
        await wait_for(lambda: not adapter.script["slow"])
        for _ in range(3000):  # the outbox writes the failure down just after deliver raised
            [row] = await rows(gateway)
            if row.attempts == 1:
                break
            await asyncio.sleep(0.02)
    finally:
        await gateway.stop()
    assert (row.status, row.attempts, row.last_error) == ("pending", 1, "timed out")
    wait = row.next_attempt_at.replace(tzinfo=UTC) - gateway.services.clock().replace(tzinfo=UTC)
    assert 90 < wait.total_seconds() <= 100
    await gateway.services.vault.dispose()


async def test_waiting_is_not_an_attempt(sqlite_url: str) -> None:
    adapter = Recorder()
    adapter.script = {
        "absent": [TargetAbsent("no object registered", 0.01) for _ in range(5)],
        "throttled": [Throttled("Retry-After 0.01 s", 0.01) for _ in range(5)],
    }
    gateway = await make(sqlite_url, adapter)  # max_attempts = 3, fewer than the waits
    await enqueue(gateway, [("a", "absent"), ("b", "throttled")])
    await gateway.start()
    try:
        await wait_for(lambda: len(adapter.delivered) == 2)
    finally:
        await gateway.stop()
    assert [(r.status, r.attempts) for r in await rows(gateway)] == [("delivered", 1)] * 2
    await gateway.services.vault.dispose()


async def test_a_target_refusing_for_a_long_outage_loses_no_row(sqlite_url: str) -> None:
    """Issue 30, item 3: 40 refusals in a row (the old count killed a row at 12, about one line lost
    per 45 s of a refusing Second Life object): every row is delivered once the target is back."""
    adapter = Recorder()
    fast = Backoff(0.005, 0.005)
    adapter.script = {"head": [RetryLater("connection refused", backoff=fast) for _ in range(40)]}
    gateway = await make(sqlite_url, adapter)
    gateway.settings.outbox.max_attempts = None  # the default: only [outbox] retry_hours bounds it
    await enqueue(gateway, [("a", "head"), ("a", "behind")])
    await gateway.start()
    try:
        await wait_for(lambda: len(adapter.delivered) == 2)
    finally:
        await gateway.stop()
    assert adapter.delivered == [("a", "head"), ("a", "behind")]
    assert [(r.status, r.attempts) for r in await rows(gateway)] == [("delivered", 41), ("delivered", 1)]
    await gateway.services.vault.dispose()


async def test_a_row_is_given_up_once_it_was_queued_retry_hours_ago(sqlite_url: str) -> None:
    clock = Clock()
    adapter = Recorder()
    adapter.script = {"head": [RetryLater("connection refused", backoff=Backoff(0.005, 0.005))]}
    gateway = await make(sqlite_url, adapter, clock)
    gateway.settings.outbox.max_attempts = None
    await enqueue(gateway, [("a", "head"), ("a", "behind")])
    clock.advance(hours=6, seconds=1)  # past [outbox] retry_hours (6): the next failure is the last
    await gateway.start()
    try:
        await wait_for(lambda: adapter.delivered == [("a", "behind")])
    finally:
        await gateway.stop()
    assert [(r.status, r.attempts) for r in await rows(gateway)] == [("dead", 1), ("delivered", 1)]
    await gateway.services.vault.dispose()
