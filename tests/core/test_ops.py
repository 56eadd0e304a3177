"""Operating a gateway over HTTP: ``/readyz`` (the vault answers and is migrated), ``/metrics``
(Prometheus text: commands, deliveries, outbox depth, leases) and who may read it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from gateway.core.app import Gateway, build_app
from gateway.core.dice import ScriptedDice
from gateway.core.errors import DeliveryFailed, Throttled
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.delivery import queue
from gateway.delivery.leases import LeaseLost, Leases
from gateway.testing import FakeAdapter
from gateway.vault import Vault
from gateway.vault.prepared import Prepared

TOKEN = "scrape-token-0123456789"


class Served:
    def __init__(self, gateway: Gateway, client: TestClient, fake: FakeAdapter, dice: ScriptedDice) -> None:
        self.gateway, self.client, self.fake, self.dice = gateway, client, fake, dice

    async def get(self, path: str, **headers: str) -> tuple[int, str]:
        response = await self.client.get(path, headers=headers)
        return response.status, await response.text()

    async def metrics(self) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
        """Every sample of /metrics, by name and sorted labels (parsed as Prometheus would)."""
        status, body = await self.get("/metrics")
        assert status == 200, body
        return {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(body)
            for sample in family.samples
        }

    async def say(self, line: str, *, as_: str = "alice") -> None:
        """A command on the fake platform: its replies go out through the outbox to ``fake``."""
        await self.gateway.services.handle(
            InboundMessage(
                sender=Identity("fake", as_, as_.title()),
                channel=Channel("fake", "room"),
                text=line,
                sync_reply=False,
            )
        )

    async def sql(self, statement: str) -> None:
        async with self.gateway.services.vault.unit() as unit:
            await unit.execute(Prepared(text(statement)), {})


Serve = Callable[..., Awaitable[Served]]


@pytest.fixture
async def serve(vault_url: str) -> AsyncIterator[Serve]:
    made: list[Served] = []

    async def make(*, migrate: bool = True, middleware: Any = None, **sections: Any) -> Served:
        fake, dice = FakeAdapter("fake"), ScriptedDice([])
        settings = Settings(
            vault={"url": vault_url, "auto_upgrade": migrate},
            outbox={"poll_interval": 0.05, "base_delay": 0.01, "max_delay": 0.05},
            **sections,
        )
        gateway = Gateway(settings, dice=dice, extra_plugins=[fake.plugin()], platforms=("fake",))
        if migrate:
            await gateway.upgrade_vault()
        app = build_app(gateway)
        if middleware is not None:
            app.middlewares.append(middleware)
        client = TestClient(TestServer(app))
        await client.start_server()
        made.append(Served(gateway, client, fake, dice))
        return made[-1]

    yield make
    for served in reversed(made):
        await served.client.close()


def sample(metrics: dict[Any, float], name: str, **labels: str) -> float | None:
    return metrics.get((name, tuple(sorted(labels.items()))))


# -- /readyz ---------------------------------------------------------------------------------------------


async def test_readyz_is_503_until_the_vault_is_migrated_while_healthz_stays_up(serve: Serve) -> None:
    served = await serve(migrate=False)
    assert (await served.get("/healthz"))[0] == 200  # liveness: the process runs
    status, body = await served.get("/readyz")
    assert status == 503 and body == "the vault is not migrated: run gateway db upgrade\n"
    await served.gateway.upgrade_vault()
    # The revision is trusted for a few seconds: the next probe says the same, without a look.
    assert (await served.get("/readyz"))[0] == 503
    served.gateway.readiness.ttl = 0.0
    status, body = await served.get("/readyz")
    assert status == 200 and body.startswith("the vault is at 0013_character_profile"), body


async def test_readyz_is_503_when_the_vault_is_behind_and_200_when_newer(serve: Serve) -> None:
    served = await serve()
    served.gateway.readiness.ttl = 0.0
    assert (await served.get("/readyz"))[0] == 200
    await served.sql("UPDATE alembic_version SET version_num = '0005_leases'")
    status, body = await served.get("/readyz")
    assert status == 503
    assert body == "the vault is at 0005_leases, behind 0013_character_profile: run gateway db upgrade\n"
    # Upgraded by a newer release (db upgrade before a rollout): the old processes stay ready.
    await served.sql("UPDATE alembic_version SET version_num = '0099_from_the_future'")
    status, body = await served.get("/readyz")
    assert status == 200 and "newer than this code" in body
    await served.sql("DROP TABLE alembic_version")
    assert await served.get("/readyz") == (503, "the vault is not migrated: run gateway db upgrade\n")


async def test_readyz_reads_the_revision_once_per_ttl(serve: Serve, monkeypatch: pytest.MonkeyPatch) -> None:
    served = await serve()
    readiness = served.gateway.readiness
    reads = 0
    revisions = readiness.revisions

    async def counted() -> set[str]:
        nonlocal reads
        reads += 1
        return await revisions()

    monkeypatch.setattr(readiness, "revisions", counted)
    readiness._revisions = None
    for _ in range(5):
        assert (await served.get("/readyz"))[0] == 200
    assert reads == 1


async def test_readyz_says_when_the_vault_cannot_be_reached(serve: Serve) -> None:
    served = await serve()
    served.gateway.readiness.vault = Vault("postgresql+asyncpg://nobody@127.0.0.1:9/none")
    try:
        status, body = await served.get("/readyz")
    finally:
        await served.gateway.readiness.vault.dispose()
    assert status == 503 and body.startswith("the vault cannot be reached: ") and body.count("\n") == 1


# -- /metrics --------------------------------------------------------------------------------------------


async def test_command_counters_and_latency(serve: Serve) -> None:
    served = await serve()
    served.dice.extend([9, 5, 10])
    await served.say("roll 3")
    await served.say("roll banana")  # a user error
    await served.say("st show Mira")  # not a Storyteller: denied
    await served.say("frobnicate")  # no such command
    metrics = await served.metrics()
    commands = {
        labels: value for (name, labels), value in metrics.items() if name == "gateway_commands_total"
    }
    assert commands == {
        (("command", "roll"), ("outcome", "ok"), ("system", "nightcap")): 1.0,
        (("command", "roll"), ("outcome", "user_error"), ("system", "nightcap")): 1.0,
        (("command", "st show"), ("outcome", "denied"), ("system", "nightcap")): 1.0,
        (("command", "-"), ("outcome", "user_error"), ("system", "nightcap")): 1.0,
    }
    assert sample(metrics, "gateway_command_duration_seconds_count", system="nightcap") == 4.0
    assert (sample(metrics, "gateway_command_duration_seconds_sum", system="nightcap") or 0) > 0
    # Chat (no prefix, no command) is not a command.
    await served.gateway.services.handle(
        InboundMessage(
            sender=Identity("fake", "bob", "Bob"),
            channel=Channel("fake", "room"),
            text="hello all",
            prefixed=True,
        )
    )
    again = await served.metrics()
    assert sample(again, "gateway_command_duration_seconds_count", system="nightcap") == 4.0


async def test_delivery_counters_and_outbox_depth(serve: Serve) -> None:
    served = await serve()
    served.fake.fail(Throttled("429", 0.0), DeliveryFailed("webhook deleted"))
    served.dice.extend([9, 5, 10, 1])
    await served.say("roll 3")  # throttled once, then sent
    await served.fake.wait_for_attempts(2)
    await served.say("roll 1")  # dead at once
    await served.fake.wait_for_attempts(3)
    async with served.gateway.services.vault.unit() as unit:  # a platform nobody serves here
        for _ in range(2):
            await queue.enqueue(unit, "nowhere", "far/away", {"kind": "reply", "text": "x"})

    async def dead_row() -> bool:
        tally = await queue.status(served.gateway.services.vault, "fake")
        return tally.get("room", queue.Tally()).dead == 1

    await asyncio.wait_for(_until(dead_row), 10)
    metrics = await served.metrics()
    assert sample(metrics, "gateway_outbox_deliveries_total", platform="fake", result="sent") == 1.0
    assert sample(metrics, "gateway_outbox_deliveries_total", platform="fake", result="throttled") == 1.0
    assert sample(metrics, "gateway_outbox_deliveries_total", platform="fake", result="dead") == 1.0
    # Every result of a platform is there from its first delivery on, at 0 until it happens.
    assert sample(metrics, "gateway_outbox_deliveries_total", platform="fake", result="retry") == 0.0
    assert sample(metrics, "gateway_outbox_rows", platform="nowhere", status="pending") == 2.0
    assert sample(metrics, "gateway_outbox_rows", platform="fake", status="dead") == 1.0
    assert sample(metrics, "gateway_outbox_rows", platform="fake", status="pending") == 0.0
    # The depth is read at most every few seconds, whatever the scrape rate.
    async with served.gateway.services.vault.unit() as unit:
        await queue.enqueue(unit, "nowhere", "far/away", {"kind": "reply", "text": "x"})
    cached = await served.metrics()
    assert sample(cached, "gateway_outbox_rows", platform="nowhere", status="pending") == 2.0
    assert served.gateway.metrics is not None
    served.gateway.metrics.depth.read_at = None
    fresh = await served.metrics()
    assert sample(fresh, "gateway_outbox_rows", platform="nowhere", status="pending") == 3.0


async def test_lease_gauge_failovers_and_losses(serve: Serve, vault_url: str) -> None:
    served = await serve(cluster={"failover_seconds": 0.6})
    leases = served.gateway.services.leases
    async with leases.hold("irc:test") as lease:
        metrics = await served.metrics()
        assert sample(metrics, "gateway_lease_held", lease="irc:test") == 1.0
        assert sample(metrics, "gateway_lease_epoch", lease="irc:test") == lease.epoch == 1
    metrics = await served.metrics()
    assert sample(metrics, "gateway_lease_held", lease="irc:test") == 0.0
    # Taken again after our own release: not a failover.
    async with leases.hold("irc:test"):
        pass
    assert leases.failovers["irc:test"] == 0
    # Another process holds it and dies (never renews): taking it over is a failover.
    other_vault = Vault(vault_url)
    try:
        other = Leases(other_vault, 0.6)
        assert await other.try_acquire("irc:test") is not None
        with pytest.raises(LeaseLost):
            async with leases.hold("irc:test") as lease:
                assert lease.epoch == 4
                # ... and another process takes it while we hold it: ours is lost.
                await served.sql("UPDATE lease SET owner = 'elsewhere', epoch = epoch + 1")
                await asyncio.sleep(5)
    finally:
        await other_vault.dispose()
    metrics = await served.metrics()
    assert sample(metrics, "gateway_lease_failovers_total", lease="irc:test") == 1.0
    assert sample(metrics, "gateway_lease_lost_total", lease="irc:test") == 1.0
    assert sample(metrics, "gateway_lease_held", lease="irc:test") == 0.0


def _peer(remote: str) -> Any:
    @web.middleware
    async def fake_peer(request: web.Request, handler: Any) -> web.StreamResponse:
        return await handler(request.clone(remote=remote))

    return fake_peer


async def test_metrics_without_a_token_answer_loopback_only(serve: Serve) -> None:
    local = await serve()
    assert (await local.get("/metrics"))[0] == 200
    far = await serve(middleware=_peer("203.0.113.7"))
    status, body = await far.get("/metrics")
    assert status == 403 and body.count("\n") == 1
    assert (await far.get("/healthz"))[0] == 200 and (await far.get("/readyz"))[0] == 200
    mapped = await serve(middleware=_peer("::ffff:127.0.0.1"))
    assert (await mapped.get("/metrics"))[0] == 200


async def test_metrics_with_a_token_want_it_from_everyone(serve: Serve) -> None:
    served = await serve(middleware=_peer("203.0.113.7"), metrics={"token": TOKEN})
    assert (await served.get("/metrics"))[0] == 401
    assert (await served.get("/metrics", Authorization="Bearer wrong-token"))[0] == 401
    assert (await served.get("/metrics", Authorization=f"Basic {TOKEN}"))[0] == 401
    status, body = await served.get("/metrics", Authorization=f"Bearer {TOKEN}")
    assert status == 200 and "# TYPE gateway_commands_total counter" in body
    local = await serve(metrics={"token": TOKEN})
    assert (await local.get("/metrics"))[0] == 401  # loopback too: the token is the rule


async def test_metrics_can_be_turned_off(serve: Serve) -> None:
    served = await serve(metrics={"enabled": False})
    assert (await served.get("/metrics"))[0] == 404
    assert served.gateway.services.router.observe is None


async def test_each_gateway_has_a_registry_of_its_own(serve: Serve) -> None:
    first, second = await serve(), await serve()
    first.dice.extend([9, 5, 10])
    await first.say("roll 3")
    assert sample(await first.metrics(), "gateway_command_duration_seconds_count", system="nightcap") == 1.0
    assert sample(await second.metrics(), "gateway_command_duration_seconds_count", system="nightcap") is None


async def _until(check: Callable[[], Awaitable[bool]]) -> None:
    while not await check():
        await asyncio.sleep(0.02)
