"""Discord's rate limits are the bot's across every process, so one gateway of the vault delivers
Discord's outbox rows at a time (lease ``discord:delivery``): with two gateways on one vault, every row
is delivered once, in order, by the lease holder, and the other takes over when it stops or is cut off."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from nacl.signing import SigningKey

from gateway.core.types import Outbound
from gateway.testing import eventually
from gateway.vault import repo
from tests.discord.conftest import DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord

F = 1.0  # failover_seconds
LEASE = "discord:delivery"


class Pair:
    def __init__(self, first: DiscordEnv, second: DiscordEnv, fake: FakeDiscord) -> None:
        self.envs, self.fake = (first, second), fake
        self.delivered_by: list[
            tuple[int, int]
        ] = []  # (which gateway, row id), per attempt that reached deliver
        for which, env in enumerate(self.envs):
            self._watch(which, env)

    def _watch(self, which: int, env: DiscordEnv) -> None:
        adapter = env.adapter
        real = adapter.deliver

        async def deliver(message: Outbound) -> None:
            self.delivered_by.append((which, message.id))
            await real(message)

        adapter.deliver = deliver

    def owner(self) -> int | None:
        owners = [i for i, env in enumerate(self.envs) if LEASE in env.gateway.services.leases.held]
        assert len(owners) <= 1, owners
        return owners[0] if owners else None

    def contents(self) -> list[str]:
        return [b["content"] for b in self.fake.bodies(self.envs[0].hooks["stlog"].id)]


async def enqueue(env: DiscordEnv, texts: list[str]) -> None:
    async with env.gateway.services.vault.transaction() as session:
        for text in texts:
            await repo.enqueue(session, "discord", "stlog", {"kind": "reply", "text": text})


@pytest.fixture
def failover() -> float:
    return F


@pytest.fixture
async def pair(vault_url: str, fake: FakeDiscord, key: SigningKey, failover: float) -> AsyncIterator[Pair]:
    hooks = {"stlog": fake.add_webhook("200")}
    sections: dict[str, Any] = {"cluster": {"failover_seconds": failover}}
    first = await start_env(vault_url, fake, key, hooks, sections)
    await eventually(lambda: LEASE in first.gateway.services.leases.held, timeout=10)
    second = await start_env(vault_url, fake, key, hooks, sections)
    yield Pair(first, second, fake)
    await second.client.close()
    await first.client.close()


def cut_off(env: DiscordEnv) -> None:
    """The vault stops granting this gateway its leases (a partition, a hung pool): renewals and claims
    come back empty, so its delivery stops and it cannot take the lease again."""

    async def nothing(name: str) -> None:
        return None

    env.gateway.services.leases._claim = nothing  # type: ignore[method-assign]


# A one-second lease can honestly change hands on a loaded machine (xdist, CI); this test is about who
# delivers while the owner is healthy, so its lease outlives any scheduling stall.
@pytest.mark.parametrize("failover", [15.0])
async def test_rows_queued_by_either_gateway_are_delivered_once_in_order_by_the_owner(pair: Pair) -> None:
    first, second = pair.envs
    await enqueue(second, [f"a{i}" for i in range(6)])  # the standby queues: the owner delivers
    await enqueue(first, [f"b{i}" for i in range(6)])
    await eventually(lambda: len(pair.contents()) == 12, timeout=30)
    assert pair.contents() == [f"a{i}" for i in range(6)] + [f"b{i}" for i in range(6)]
    assert {which for which, _ in pair.delivered_by} == {0}
    assert pair.owner() == 0
    rows = await second.rows(platform="discord")
    assert [r.status for r in rows] == ["delivered"] * 12


async def test_the_standby_takes_over_when_the_owner_stops(pair: Pair) -> None:
    first, second = pair.envs
    await enqueue(first, ["before"])
    await eventually(lambda: pair.contents() == ["before"], timeout=30)
    await first.client.close()  # a clean stop releases the lease at once
    await enqueue(second, ["after"])
    await eventually(lambda: pair.contents() == ["before", "after"], timeout=5 * F)
    assert pair.owner() == 1
    assert [which for which, _ in pair.delivered_by] == [0, 1]


async def test_the_standby_takes_over_within_failover_seconds_when_the_owner_is_cut_off(pair: Pair) -> None:
    """Rows queued before, during and after the failover arrive exactly once and in order."""
    first, second = pair.envs
    await enqueue(first, [f"before{i}" for i in range(5)])
    cut_off(first)
    lost = time.monotonic()
    await enqueue(second, [f"during{i}" for i in range(5)])
    await eventually(lambda: pair.owner() == 1, timeout=5 * F)
    took_over = time.monotonic() - lost
    await enqueue(second, [f"after{i}" for i in range(5)])
    expected = [f"{when}{i}" for when in ("before", "during", "after") for i in range(5)]
    await eventually(lambda: len(pair.contents()) >= len(expected), timeout=30)
    assert pair.contents() == expected
    assert took_over <= F, took_over
    # Once cut off, the first gateway delivers nothing more.
    seen_second = [i for i, (which, _) in enumerate(pair.delivered_by) if which == 1]
    assert seen_second and all(which == 1 for which, _ in pair.delivered_by[seen_second[0] :])


async def saved_limiter(env: DiscordEnv) -> dict[str, Any] | None:
    return await env.adapter.state.get("limiter")


def same_buckets(saved: dict[str, Any], learnt: dict[str, Any]) -> bool:
    """The same buckets with the same figures; ``reset`` is a wall-clock time the limiter works out
    from its monotonic clock at each dump, so two dumps may differ in the fourth decimal."""
    if saved.keys() != learnt.keys():
        return False
    for key, bucket in learnt.items():
        other, mine = dict(saved[key]), bucket.get("reset")
        theirs = other.pop("reset", None)
        if (theirs is None or mine is None) and theirs != mine:
            return False
        if theirs is not None and mine is not None and abs(float(theirs) - float(mine)) > 0.01:
            return False
        if other != {k: v for k, v in bucket.items() if k != "reset"}:
            return False
    return True


async def test_the_rate_limits_the_owner_learnt_go_to_the_next_owner_and_only_the_owner_saves(
    pair: Pair,
) -> None:
    """The buckets are the deployment's: the next owner starts from what the last one learnt, and a
    standby stopping (it sent nothing) does not overwrite them with its empty limiter."""
    first, second = pair.envs
    await enqueue(first, ["one", "two"])
    await eventually(lambda: pair.contents() == ["one", "two"], timeout=30)
    learnt = first.adapter.limiter.dump()["buckets"]
    assert learnt  # the fake answers with X-RateLimit-* headers, as Discord does
    await first.client.close()  # the owner stops: saves, releases
    assert same_buckets((await saved_limiter(second) or {}).get("buckets") or {}, learnt)
    await eventually(lambda: pair.owner() == 1, timeout=5 * F)
    # The lease is held a moment before the worker loads the state under it.
    await eventually(lambda: second.adapter.limiter.dump()["buckets"].keys() >= learnt.keys(), timeout=5 * F)
    # A third gateway that never owned the lease stops: what the owner saved stays.
    sections: dict[str, Any] = {"cluster": {"failover_seconds": F}}
    third = await start_env(second.gateway.settings.vault.url, pair.fake, second.key, second.hooks, sections)
    before = await saved_limiter(second)
    await third.client.close()
    assert await saved_limiter(second) == before
