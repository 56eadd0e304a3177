"""Leases on both engines: exclusive, renewed, taken over after expiry with a higher epoch, and lost
work stopped before anyone else can start it. Two ``Leases`` objects are two processes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from gateway.delivery.leases import CLAIM, LeaseLost, Leases
from gateway.vault import Vault
from gateway.vault.migrate import upgrade

F = 0.6  # failover_seconds: ttl 0.45 s, renewed every 0.15 s, standby polls every 0.06 s


@pytest.fixture
async def vaults(vault_url: str) -> AsyncIterator[tuple[Vault, Vault]]:
    """Two vault objects (two processes' engines) on one database."""
    a, b = Vault(vault_url), Vault(vault_url)
    await upgrade(a)
    try:
        yield a, b
    finally:
        await a.dispose()
        await b.dispose()


async def test_a_lease_is_exclusive_and_renewed_by_its_owner_only(vaults: tuple[Vault, Vault]) -> None:
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    assert a.owner != b.owner
    first = await a.try_acquire("irc:test")
    assert first is not None and first.epoch == 1
    assert await b.try_acquire("irc:test") is None
    assert await a.renew(first)
    assert first.epoch == 1  # renewing keeps the epoch
    assert await b.try_acquire("irc:test") is None
    holder = await a.current("irc:test")
    assert holder is not None and holder.owner == a.owner and holder.epoch == 1
    # Other names are independent.
    other = await b.try_acquire("irc:other")
    assert other is not None and other.owner == b.owner


async def test_an_expired_lease_is_taken_over_with_a_higher_epoch(vaults: tuple[Vault, Vault]) -> None:
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    first = await a.try_acquire("matrix:main")
    assert first is not None
    # a "dies": no renewal. Before the ttl nobody else gets it; after, b does.
    assert await b.try_acquire("matrix:main") is None
    await asyncio.sleep(a.ttl + 0.05)
    second = await b.try_acquire("matrix:main")
    assert second is not None and second.epoch == first.epoch + 1
    # The old owner's renewal fails, and so does its release (it would release b's lease).
    assert not await a.renew(first)
    await a.release(first)
    assert await a.try_acquire("matrix:main") is None
    # b releases: a takes it at once, with the next epoch.
    await b.release(second)
    third = await a.try_acquire("matrix:main")
    assert third is not None and third.epoch == second.epoch + 1


async def test_a_renewal_after_a_gap_is_a_loss_even_when_nobody_took_it(vaults: tuple[Vault, Vault]) -> None:
    a = Leases(vaults[0], F)
    lease = await a.try_acquire("irc:gap")
    assert lease is not None
    await asyncio.sleep(a.ttl + 0.05)
    assert not await a.renew(lease)  # the epoch moved on: a pause this long may have let another in
    again = await a.try_acquire("irc:gap")
    assert again is not None and again.epoch == lease.epoch + 1


async def test_one_statement_claims_on_the_database_clock(vaults: tuple[Vault, Vault]) -> None:
    """Many processes racing for one fresh lease: exactly one wins."""
    contenders = [Leases(vaults[i % 2], F) for i in range(8)]
    won = await asyncio.gather(*(c.try_acquire("race") for c in contenders))
    assert sum(w is not None for w in won) == 1
    assert CLAIM.keys() == {"postgresql", "sqlite"}


async def test_hold_keeps_renewing_while_the_work_runs(vaults: tuple[Vault, Vault]) -> None:
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    async with a.hold("irc:test") as lease:
        for _ in range(6):  # 0.9 s: twice the ttl
            await asyncio.sleep(0.15)
            assert await b.try_acquire("irc:test") is None
        assert lease.time_left() > 0
        assert "irc:test" in a.held
    # Leaving the block releases it: b gets it at once.
    assert "irc:test" not in a.held
    assert await b.try_acquire("irc:test") is not None


async def test_a_standby_takes_over_when_the_holder_stops_renewing(vaults: tuple[Vault, Vault]) -> None:
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    running: list[str] = []

    async def work(who: str) -> None:
        running.append(who)
        await asyncio.Future()

    owner = asyncio.create_task(a.run("irc:test", lambda lease: work("a")))
    while running != ["a"]:
        await asyncio.sleep(0.01)
    standby = asyncio.create_task(b.run("irc:test", lambda lease: work("b")))
    await asyncio.sleep(0.5)
    assert running == ["a"]
    # a is "killed": its heartbeat and work stop without releasing anything.
    a.release = _no_release  # type: ignore[method-assign]
    killed = time.monotonic()
    owner.cancel()
    with pytest.raises(asyncio.CancelledError):
        await owner
    while running != ["a", "b"]:
        await asyncio.sleep(0.01)
        assert time.monotonic() - killed < 3 * F
    assert time.monotonic() - killed <= F  # within failover_seconds
    standby.cancel()
    with pytest.raises(asyncio.CancelledError):
        await standby


async def _no_release(lease: object) -> None:
    return None


async def test_losing_the_lease_stops_the_work_before_anyone_else_can_start(
    vaults: tuple[Vault, Vault],
) -> None:
    """The database stops answering a's renewals (a stuck pool, a partition): a's work is cancelled
    while its lease is still valid, so b starts only after a has stopped."""
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    events: list[tuple[str, float]] = []
    stuck = asyncio.Event()
    real_claim = a._claim

    async def claim(name: str) -> tuple[int, float] | None:
        if stuck.is_set():
            await asyncio.Future()  # hangs
        return await real_claim(name)

    a._claim = claim  # type: ignore[method-assign]

    async def work(who: str) -> None:
        events.append((f"{who} start", time.monotonic()))
        try:
            await asyncio.Future()
        finally:
            events.append((f"{who} stop", time.monotonic()))

    lost = asyncio.Event()

    async def a_work(lease: object) -> None:
        try:
            await work("a")
        except asyncio.CancelledError:
            lost.set()
            raise

    owner = asyncio.create_task(a.run("irc:test", a_work))
    await standby_wait(events, "a start")
    standby = asyncio.create_task(b.run("irc:test", lambda lease: work("b")))
    await asyncio.sleep(0.3)
    stuck.set()
    await standby_wait(events, "b start", timeout=5)
    names = [name for name, _ in events]
    assert names == ["a start", "a stop", "b start"], events
    a_stop = dict(events)["a stop"]
    b_start = dict(events)["b start"]
    assert b_start - a_stop >= 0.0
    assert lost.is_set()
    standby.cancel()
    owner.cancel()
    for task in (standby, owner):
        with pytest.raises(asyncio.CancelledError):
            await task


async def standby_wait(events: list[tuple[str, float]], name: str, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while name not in [n for n, _ in events]:
        assert time.monotonic() < deadline, events
        await asyncio.sleep(0.01)


async def test_hold_raises_lease_lost_when_another_process_takes_the_row(vaults: tuple[Vault, Vault]) -> None:
    a, b = Leases(vaults[0], F), Leases(vaults[1], F)
    with pytest.raises(LeaseLost):
        async with a.hold("irc:test") as lease:
            # An operator (or a bug) hands the lease to b behind a's back: a's next renewal sees it.
            await a.release(lease)
            assert await b.try_acquire("irc:test") is not None
            await asyncio.sleep(5 * F)
    assert lease.lost.is_set()
    holder = await b.current("irc:test")
    assert holder is not None and holder.owner == b.owner  # a's exit did not release b's lease


async def test_one_holder_per_name_within_a_process(vaults: tuple[Vault, Vault]) -> None:
    a = Leases(vaults[0], F)
    order: list[str] = []

    async def one(tag: str) -> None:
        async with a.hold("x"):
            order.append(f"{tag} in")
            await asyncio.sleep(0.1)
            order.append(f"{tag} out")

    await asyncio.gather(one("1"), one("2"))
    assert order in (["1 in", "1 out", "2 in", "2 out"], ["2 in", "2 out", "1 in", "1 out"])


async def test_a_shutdown_that_meets_a_loss_is_not_swallowed(vaults: tuple[Vault, Vault]) -> None:
    """The lease is lost and the task is cancelled from outside as well: the cancellation goes on
    (``run`` must not take it for a loss and wait to hold the lease again)."""
    a = Leases(vaults[0], F)
    started = asyncio.Event()

    async def work(lease: object) -> None:
        started.set()
        try:
            await asyncio.Future()
        finally:
            # Cleanup that takes a while, during which the owner is also shut down.
            await asyncio.sleep(0.2)

    task = asyncio.create_task(a.run("irc:test", work))
    await started.wait()
    lease = a.held["irc:test"]
    await a.release(lease)
    assert await Leases(vaults[1], F).try_acquire("irc:test") is not None
    while not lease.lost.is_set():
        await asyncio.sleep(0.01)
    task.cancel()  # during the cleanup
    with pytest.raises(asyncio.CancelledError):
        await task
