"""Work that must run once per deployment, with two gateways on one vault (SQLite and PostgreSQL): the
outbox sweeper, Second Life's prune beat, the HTTP API's key pruner and a platform whose delivery runs
under a lease each run in exactly one gateway, and move to the other when it stops or loses its lease."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.delivery import queue
from gateway.testing import FakeAdapter, eventually

F = 1.0  # failover_seconds: leases last 0.75 s, a standby looks every 0.1 s
# Waits on a condition: generous, since a loaded machine is slow and a met condition returns at once.
WAIT = 20.0
JOBS = ("outbox:prune", "secondlife:prune", "http:prune")


class Node:
    """One gateway process: which of the periodic jobs ran in it, and how often."""

    def __init__(self, url: str, fake: FakeAdapter | None = None) -> None:
        settings = Settings(
            vault={"url": url},
            cluster={"failover_seconds": F},
            http={"tokens": {"alpha": "alpha-token-0123456789"}},
            secondlife={"shared_secret": "s" * 32},
            outbox={"poll_interval": 0.05},
        )
        extra = [fake.plugin()] if fake is not None else []
        platforms = ("http", "secondlife", *((fake.platform,) if fake is not None else ()))
        self.gateway = Gateway(settings, dice=ScriptedDice([]), extra_plugins=extra, platforms=platforms)
        self.fake = fake
        self.runs: Counter[str] = Counter()
        adapters = self.gateway.adapters
        self._count("outbox:prune", self.gateway.outbox, "prune")
        self._count("secondlife:prune", adapters["secondlife"].pruner, "prune")
        self._count("http:prune", adapters["http"], "prune_keys")
        self.running = False

    def _count(self, job: str, owner: Any, method: str) -> None:
        real: Callable[..., Awaitable[Any]] = getattr(owner, method)

        async def counted(*args: Any) -> Any:
            self.runs[job] += 1
            return await real(*args)

        setattr(owner, method, counted)

    @property
    def held(self) -> set[str]:
        return set(self.gateway.services.leases.held)

    async def start(self) -> Node:
        await self.gateway.upgrade_vault()
        await self.gateway.start()
        self.running = True
        return self

    async def stop(self) -> None:
        if self.running:
            self.running = False
            await self.gateway.stop()

    def lose_leases(self) -> None:
        """The vault stops granting this process its leases (a partition, a stuck pool): every renewal
        and claim comes back empty."""

        async def nothing(name: str) -> None:
            return None

        self.gateway.services.leases._claim = nothing  # type: ignore[method-assign]


@pytest.fixture
async def nodes(vault_url: str) -> AsyncIterator[Callable[..., Awaitable[Node]]]:
    made: list[Node] = []

    async def make(fake: FakeAdapter | None = None) -> Node:
        made.append(await Node(vault_url, fake).start())
        return made[-1]

    yield make
    for node in reversed(made):
        await node.stop()


async def _settle() -> None:
    """Long enough for a standby to take a free lease several times over (it looks every F / 10)."""
    await asyncio.sleep(F)


def _once_per_tenure(node: Node) -> bool:
    losses = node.gateway.services.leases.losses
    return all(node.runs[job] == 1 + losses[job] for job in JOBS)


async def test_each_job_runs_in_exactly_one_gateway_and_moves_when_it_stops(
    nodes: Callable[..., Awaitable[Node]],
) -> None:
    first = await nodes()
    await eventually(lambda: first.held >= set(JOBS), timeout=10)
    second = await nodes()
    await _settle()
    assert first.held >= set(JOBS) and not second.held & set(JOBS)
    # Each prunes once per tenure. Both nodes share one event loop here, so the second's start can
    # delay the first's renewal past its local deadline; the first then stops the work and takes the
    # lease again (nobody else held it) and prunes again: one more tenure per loss it counted.
    leases = first.gateway.services.leases
    for job in JOBS:
        holder = await leases.current(job)
        assert holder is not None and holder.owner == leases.owner
    assert _once_per_tenure(first), (first.runs, leases.losses)
    assert not second.runs
    await first.stop()
    await eventually(lambda: second.held >= set(JOBS), timeout=WAIT)
    await eventually(lambda: _once_per_tenure(second), timeout=WAIT)


async def test_a_gateway_that_loses_its_leases_stops_the_jobs_and_the_other_takes_them(
    nodes: Callable[..., Awaitable[Node]],
) -> None:
    first = await nodes()
    await eventually(lambda: first.held >= set(JOBS), timeout=10)
    second = await nodes()
    first.lose_leases()
    # Its renewals fail: the jobs are cancelled there; once the rows expire the standby has them.
    await eventually(lambda: not first.held, timeout=WAIT)
    await eventually(lambda: second.held >= set(JOBS), timeout=WAIT)
    await eventually(lambda: _once_per_tenure(second), timeout=WAIT)
    await _settle()
    assert not first.held and all(first.runs[job] == 1 for job in JOBS)
    for name in JOBS:
        holder = await second.gateway.services.leases.current(name)
        assert holder is not None and holder.owner == second.gateway.services.leases.owner


class LeasedFake(FakeAdapter):
    """A platform whose delivery must run in one process at a time."""

    delivery_lease = "fake:delivery"


async def _queue(node: Node, texts: list[str]) -> None:
    async with node.gateway.services.vault.unit() as unit:
        for text in texts:
            await queue.enqueue(unit, "fake", "room", {"text": text}, now=node.gateway.services.clock())


async def test_a_platform_with_a_delivery_lease_is_delivered_by_its_owner_only(
    nodes: Callable[..., Awaitable[Node]],
) -> None:
    first = await nodes(LeasedFake())
    await eventually(lambda: "fake:delivery" in first.held, timeout=10)
    second = await nodes(LeasedFake())
    assert first.fake is not None and second.fake is not None
    # Rows queued by the standby wait for the owner (woken through the vault on PostgreSQL, at its
    # next poll on SQLite).
    await _queue(second, ["one", "two"])
    await first.fake.wait_for(2, timeout=10)
    await _queue(first, ["three"])
    await first.fake.wait_for(3, timeout=10)
    assert first.fake.texts() == ["one", "two", "three"] and second.fake.attempts == []
    await first.stop()
    await _queue(second, ["four"])
    await second.fake.wait_for(1, timeout=WAIT)
    assert second.fake.texts() == ["four"] and "fake:delivery" in second.held


async def test_stopping_a_standby_is_prompt(nodes: Callable[..., Awaitable[Node]]) -> None:
    """A worker standing by for its lease has nothing in flight: stopping does not wait out the grace."""
    first = await nodes(LeasedFake())
    await eventually(lambda: "fake:delivery" in first.held, timeout=10)
    second = await nodes(LeasedFake())
    loop = asyncio.get_running_loop()
    started = loop.time()
    await second.stop()
    assert loop.time() - started < 2.0


class StartFails(LeasedFake):
    """Its delivery state cannot be loaded (the vault hiccups as the lease is taken)."""

    async def delivery_started(self) -> None:
        raise RuntimeError("vault went away for a moment")


async def test_a_holder_that_cannot_load_its_delivery_state_still_delivers(
    nodes: Callable[..., Awaitable[Node]],
) -> None:
    node = await nodes(StartFails())
    await eventually(lambda: "fake:delivery" in node.held, timeout=10)
    await _queue(node, ["one"])
    assert node.fake is not None
    await node.fake.wait_for(1, timeout=10)
    assert node.fake.texts() == ["one"]
