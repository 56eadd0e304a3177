"""``Idempotency-Key`` on ``POST /api/v1/command``: scoped per token (D5), whole keys (D6), and a retry
answered with the first run's replies (D7), also from another process while the first still runs."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func
from sqlmodel import select

from gateway.core.app import Gateway, build_app
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import Clock
from gateway.vault.models import RollLog

TOKENS = {"alpha": "alpha-token-0123456789", "beta": "beta-token-0123456789"}


class Api:
    def __init__(self, gateway: Gateway, client: TestClient, dice: ScriptedDice, clock: Clock) -> None:
        self.gateway, self.client, self.dice, self.clock = gateway, client, dice, clock

    async def post(self, text: str, key: str | None, token: str = "alpha") -> tuple[int, Any]:
        headers = {"Authorization": f"Bearer {TOKENS[token]}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        resp = await self.client.post("/api/v1/command", json={"text": text}, headers=headers)
        body = await resp.json() if resp.content_type == "application/json" else await resp.text()
        return resp.status, body

    async def rolls(self) -> int:
        async with self.gateway.services.vault.transaction() as session:
            return int((await session.exec(select(func.count()).select_from(RollLog))).one())


@pytest.fixture
async def make_api(vault_url: str) -> AsyncIterator[Callable[[], Awaitable[Api]]]:
    made: list[Api] = []

    async def make() -> Api:
        dice, clock = ScriptedDice([]), Clock(now=datetime.now(UTC))
        settings = Settings(vault={"url": vault_url}, http={"tokens": TOKENS})
        gateway = Gateway(settings, dice=dice, clock=clock, platforms=("http",))
        await gateway.upgrade_vault()
        client = TestClient(TestServer(build_app(gateway)))
        await client.start_server()
        made.append(Api(gateway, client, dice, clock))
        return made[-1]

    yield make
    for api in reversed(made):
        await api.client.close()


def roll_id(body: Any) -> str:
    return str(body["replies"][0]["text"]).rsplit("#", 1)[1]


async def test_a_retry_gets_the_first_replies_and_rolls_nothing(make_api: Any) -> None:
    api = await make_api()
    api.dice.extend([9, 5, 10])
    status, first = await api.post("roll 3", "k-1")
    assert status == 200 and first["replies"][0]["result"]["dice"] == [9, 5, 10]
    status, again = await api.post("roll 3", "k-1")
    assert status == 200
    assert again == first  # the client that lost the first answer learns its roll id
    assert await api.rolls() == 1


async def test_a_key_reused_for_another_command_is_refused(make_api: Any) -> None:
    api = await make_api()
    api.dice.extend([9, 5, 10])
    await api.post("roll 3", "k-1")
    status, body = await api.post("roll 4", "k-1")
    assert status == 200
    assert body["replies"] == [
        {
            "text": "That message id was used for another command.",
            "private": False,
            "error": "conflict",
            "result": None,
        }
    ]
    assert await api.rolls() == 1


async def test_keys_are_kept_a_day(make_api: Any) -> None:
    api = await make_api()
    api.dice.extend([9, 5, 10, 1, 2, 3])
    _, first = await api.post("roll 3", "k-1")
    adapter = api.gateway.adapters["http"]
    assert await adapter.prune_keys() == 0
    api.clock.advance(hours=25)
    assert await adapter.prune_keys() == 1
    _, later = await api.post("roll 3", "k-1")  # a day later the key is new again, as with Stripe
    assert roll_id(later) != roll_id(first)


async def test_keys_are_scoped_to_the_token(make_api: Any) -> None:
    api = await make_api()
    api.dice.extend([9, 5, 10, 1, 2, 3])
    _, alpha = await api.post("roll 3", "shared-key", token="alpha")
    _, beta = await api.post("roll 3", "shared-key", token="beta")
    assert beta["replies"][0]["result"]["dice"] == [1, 2, 3]
    assert roll_id(beta) != roll_id(alpha)
    assert await api.rolls() == 2


async def test_long_keys_differing_late_do_not_collide_and_too_long_ones_are_refused(make_api: Any) -> None:
    api = await make_api()
    api.dice.extend([9, 5, 10, 1, 2, 3])
    stem = "k" * 250
    _, a = await api.post("roll 3", stem + "-a")
    _, b = await api.post("roll 3", stem + "-b")
    assert roll_id(a) != roll_id(b)
    assert await api.rolls() == 2
    status, text = await api.post("roll 3", "k" * 256)
    assert (status, text) == (400, "Idempotency-Key is longer than 255 characters")
    assert await api.rolls() == 2


async def test_a_retry_while_the_first_run_is_in_flight_waits_for_its_answer(
    make_api: Any, vault_url: str
) -> None:
    """On PostgreSQL the retry reaches another process (its insert of the key waits on the first
    run's row); on SQLite, where one process owns the vault, the same process (its unit waits for
    the write lock)."""
    first = await make_api()
    second = first if vault_url.startswith("sqlite") else await make_api()
    first.dice.extend([9, 5, 10])
    if second is not first:
        second.dice.extend([1, 1, 1])
    router = first.gateway.services.router
    original = router._run
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_run(*args: Any, **kw: Any) -> Any:
        started.set()
        await release.wait()  # the first run holds its transaction open here
        return await original(*args, **kw)

    router._run = slow_run
    running = asyncio.create_task(first.post("roll 3", "k-slow"))
    try:
        await asyncio.wait_for(started.wait(), 10)
        retry = asyncio.create_task(second.post("roll 3", "k-slow"))
        await asyncio.sleep(0.3)
        early = retry.done()  # an answer now would be [] or a second run, not the first's replies
    finally:
        release.set()  # a failing test must not leave the first request hanging
    assert not early, await retry
    status, answer = await running
    assert status == 200 and answer["replies"][0]["result"]["dice"] == [9, 5, 10]
    assert await retry == (200, answer)
    assert await first.rolls() == 1
