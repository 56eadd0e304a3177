"""The per-object rate limit with several gateway processes: on PostgreSQL the object's bucket is one
row of the vault (``gateway.delivery.rate_buckets``), so requests spread over three gateways draw on one
budget;
on SQLite, whose vault one process owns, each process keeps its own buckets in memory, as before."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from pathlib import Path

import pytest

from gateway.delivery.rate_buckets import SharedBuckets
from tests.secondlife.conftest import World
from tests.secondlife.harness import Hud, HudResponse

LIMITED = "too many requests from this object"


@pytest.fixture
async def worlds(vault_url: str, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[list[World]]]]:
    made: list[World] = []

    async def make(burst: int, rate: float) -> list[World]:
        for _ in range(3):
            world = World(vault_url, tmp_path)
            await world.start(secondlife={"rate_burst": burst, "rate_per_second": rate})
            made.append(world)
        return made

    yield make
    for world in reversed(made):
        await world.close()


class Object:
    """One in-world object whose requests (each with a nonce of its own) go to any of the gateways."""

    def __init__(self, first: World) -> None:
        self.hud = first.hud("Mira Vance")
        self.nonce = 0

    async def ask(self, world: World) -> HudResponse:
        self.nonce += 1
        body = json.dumps({"text": "", "state": True, "nonce": self.nonce}).encode()
        headers = self.hud.signed_headers(body, "application/json")
        return await Hud(world.url, owner_name=self.hud.owner_name).post("/sl/v1/command", body, headers)


def shared(worlds: list[World]) -> bool:
    return worlds[0].adapter.inbound.shared is not None


async def test_one_objects_requests_over_three_gateways_draw_on_one_bucket(
    worlds: Callable[..., Awaitable[list[World]]],
) -> None:
    three = await worlds(4, 0.05)  # a token every 20 s: none comes back during the test
    obj = Object(three[0])
    answers = [await obj.ask(three[i % 3]) for i in range(7)]
    if not shared(three):  # SQLite: each process has the whole burst for itself
        assert [a.status for a in answers] == [200] * 7
        assert (await obj.ask(three[0])).status == 200  # its fourth
        limited = await obj.ask(three[0])  # its fifth
        assert (limited.status, limited.text, limited.headers["Retry-After"]) == (429, LIMITED, "20")
        return
    assert [a.status for a in answers] == [200] * 4 + [429] * 3
    for limited in answers[4:]:  # the same answer as one process gives
        assert (limited.text, limited.headers["Retry-After"]) == (LIMITED, "20")
    other = Object(three[0])  # another object has its own bucket
    assert (await other.ask(three[1])).status == 200


async def test_concurrent_requests_over_three_gateways_get_exactly_the_burst(
    worlds: Callable[..., Awaitable[list[World]]],
) -> None:
    three = await worlds(5, 0.01)
    if not shared(three):
        pytest.skip("SQLite keeps one bucket per process (the test above)")
    obj = Object(three[0])
    answers = await asyncio.gather(*(obj.ask(three[i % 3]) for i in range(15)))
    assert sorted(a.status for a in answers) == [200] * 5 + [429] * 10


async def test_the_shared_bucket_refills_on_the_databases_clock(
    worlds: Callable[..., Awaitable[list[World]]],
) -> None:
    three = await worlds(2, 2.0)  # a token every 0.5 s
    if not shared(three):
        pytest.skip("SQLite keeps one bucket per process (tests/secondlife/test_inbound.py)")
    obj = Object(three[0])
    assert [(await obj.ask(w)).status for w in three[:2]] == [200, 200]
    limited = await obj.ask(three[2])
    assert (limited.status, limited.headers["Retry-After"]) == (429, "1")  # under 0.5 s, rounded up to 1
    loop = asyncio.get_running_loop()
    started = loop.time()
    allowed: list[int] = []

    async def asks() -> None:
        allowed.append((await obj.ask(three[len(allowed) % 3])).status)

    while 200 not in allowed:  # a refused request spends nothing: polling does not delay the token
        await asks()
    assert loop.time() - started < 2.0
    assert allowed[-1] == 200


async def test_idle_buckets_are_pruned(vault_url: str, tmp_path: Path) -> None:
    """A bucket untouched for longer than its refill is full: its row goes, and nothing changes."""
    world = World(vault_url, tmp_path)
    await world.start()
    try:
        buckets = SharedBuckets(world.services.vault, 2, 10.0, prefix="test:")
        assert await buckets.take("a") is None
        assert await buckets.take("a") is None
        wait = await buckets.take("a")
        assert wait is not None and 0 < wait <= 1 / 10
        assert await buckets.prune() == 0  # touched just now
        await asyncio.sleep(buckets.idle_seconds() + 0.05)
        assert await buckets.prune() == 1
        assert await buckets.take("a") is None  # a fresh, full bucket
    finally:
        await world.close()


async def test_the_prune_beat_prunes_the_objects_idle_buckets(
    worlds: Callable[..., Awaitable[list[World]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    three = await worlds(2, 10.0)  # full again 0.2 s after the last request
    adapter = three[0].adapter
    if adapter.inbound.shared is None:
        pytest.skip("SQLite keeps its buckets in memory")
    obj = Object(three[0])
    assert (await obj.ask(three[1])).status == 200
    monkeypatch.setattr("adapters.secondlife.pruning.KEEP_BUCKETS", timedelta(0))
    adapter.pruner.monotonic = lambda: 1e12  # its ten minutes are up
    await asyncio.sleep(adapter.inbound.shared.idle_seconds() + 0.05)
    await adapter.pruner.prune(adapter.inbound.shared)
    assert await adapter.inbound.shared.prune() == 0  # the beat took the row already
