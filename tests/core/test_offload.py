"""Heavy pure work off the event loop (``gateway.core.offload``): odds run in a worker process after the
unit of work, within ``[gateway] offload_timeout``; a retried message id gets the first answer."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import AsyncIterator, Callable
from fractions import Fraction
from functools import partial
from multiprocessing.reduction import ForkingPickler
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import func
from sqlmodel import select

from gateway import CommandContext, Invocation, Reply
from gateway.core.app import Gateway, build_app
from gateway.core.hookspecs import hookimpl
from gateway.core.offload import NICE, Offload, Offloaded, TooLong
from gateway.core.settings import Settings
from gateway.core.spec import Command
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.testing import Chat, FakeAdapter, start_chat
from gateway.vault.models import OutboxRow, ProcessedMessage, StlogEntry

TOKEN = "offload-token-0123456789"


def spin(seconds: float) -> str:
    """Busy for ``seconds`` of CPU-bound pure Python, like exact odds of huge pools."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return "done"


def with_pid(compute: Callable[[], Any]) -> tuple[int, Any]:
    return os.getpid(), compute()


def token() -> str:
    """A different answer on every run: a retry that ran again would show it."""
    return secrets.token_hex(8)


async def slow(ctx: CommandContext, inv: Invocation) -> Offloaded[str]:
    """``slow SECONDS``: writes a Storyteller-log line in its unit, then spins in a worker."""
    await ctx.stlog("slow started", kind="note")
    return Offloaded(partial(spin, float(inv.words[0])), lambda value: Reply(text=value), "Too long, sorry.")


async def fresh(ctx: CommandContext, inv: Invocation) -> Offloaded[str]:
    return Offloaded(token, lambda value: Reply(text=value))


class Commands:
    @hookimpl
    def gateway_register_commands(self, register: Callable[[Command], None]) -> None:
        register(Command("slow", slow, "spin", role="anyone"))
        register(Command("fresh", fresh, "a fresh token", role="anyone"))


def pids_of(chat: Chat) -> list[int]:
    """Spy on the gateway's offload: each computation also reports the pid it ran in."""
    offload = chat.services.offload
    run, pids = offload.run, []

    async def spying(compute: Callable[[], Any], *args: Any) -> Any:
        pid, value = await run(partial(with_pid, compute), *args)
        pids.append(pid)
        return value

    offload.run = spying  # type: ignore[method-assign]
    return pids


async def count(chat: Chat, model: Any) -> int:
    async with chat.services.vault.transaction() as session:
        return int((await session.exec(select(func.count()).select_from(model))).one())


@pytest.fixture
async def chat(vault_url: str) -> AsyncIterator[Chat]:
    chat = await start_chat(vault_url, extra_plugins=[Commands()])
    yield chat
    await chat.stop()


@pytest.fixture
async def hasty(vault_url: str) -> AsyncIterator[Chat]:
    """One worker, started, then a second for each computation."""
    chat = await start_chat(vault_url, extra_plugins=[Commands()], gateway={"offload_workers": 1})
    assert (await chat.one("slow 0")).text == "done"  # a worker's first start imports this module
    chat.services.offload.timeout = 1.0
    yield chat
    await chat.stop()


async def test_the_pool_runs_in_other_processes_and_stops_with_the_gateway(chat: Chat) -> None:
    offload = chat.services.offload
    assert not offload.started  # started on first need
    worker = await offload.run(os.getpid)
    assert worker != os.getpid()
    assert offload.started
    assert await offload.run(os.nice, 0) == os.nice(0) + NICE  # it yields the CPU to the loop
    await chat.stop()
    assert not offload.started
    with pytest.raises(ProcessLookupError):
        os.kill(worker, 0)  # the worker was joined, not left behind


@pytest.mark.parametrize(
    ("system", "text"),
    [
        ("dramatic", "odds 8 spec vs 7 spec"),
        ("dramatic", "odds 6 wp spec"),
        ("decanter", "odds 8 madv vs 7 madv"),
        ("decanter", "odds 6 adv dc 3"),
        ("nightcap", "odds 8 vs 7"),
        ("nightcap", "odds 6 wp"),
        ("pravidla", "odds 8 vs 7"),
        ("pravidla", "odds 6 need 2"),
        ("nightwanderers", "odds 8 vs 7"),
        ("nightwanderers", "odds 6 need 2"),
    ],
)
async def test_odds_of_every_system_are_computed_in_a_worker(chat: Chat, system: str, text: str) -> None:
    await chat.one(f"system {system}", as_="gm", st=True)
    pids = pids_of(chat)
    reply = await chat.one(text)
    assert reply.error is None, reply.text
    assert reply.result is not None and reply.result["kind"] == "odds"
    assert len(pids) == 1 and pids[0] != os.getpid()
    chat.services.settings.gateway.offload_workers = 0  # the same command on the loop: the same answer
    chat.services.offload.workers = 0
    assert await chat.one(text) == reply


async def test_past_the_bound_one_short_line_and_nothing_kept(hasty: Chat) -> None:
    before = await count(hasty, StlogEntry)
    reply = await hasty.one("slow 60", message_id="m-1")
    assert (reply.text, reply.error) == ("Too long, sorry.", "too_long")
    assert await count(hasty, StlogEntry) == before  # the handler's unit was rolled back
    assert await count(hasty, ProcessedMessage) == 0  # a retry runs again: nothing was answered
    # The worker was freed by its own alarm, not left spinning for a minute: the one worker answers.
    assert (await hasty.one("slow 0")).text == "done"


async def test_past_the_bound_in_the_users_language(hasty: Chat) -> None:
    await hasty.one("system pravidla", as_="gm", st=True)
    hasty.services.offload.timeout = 1e-6  # no odds finish in a microsecond
    reply = await hasty.one("odds 20 vs 20")  # Pravidla speaks Czech unless told otherwise
    assert (reply.text, reply.error) == (
        "Výpočet těchto šancí by tu trval příliš dlouho; zkuste menší počty kostek.",
        "too_long",
    )


async def test_a_deferred_answer_keeps_only_the_answer(chat: Chat) -> None:
    before = await count(chat, StlogEntry)
    assert (await chat.one("slow 0", message_id="m-2")).text == "done"
    assert await count(chat, StlogEntry) == before
    assert await count(chat, ProcessedMessage) == 1


async def test_a_retried_message_id_gets_the_first_answer(chat: Chat) -> None:
    first = await chat.one("fresh", message_id="m-3")
    assert await chat.one("fresh", message_id="m-3") == first
    assert await chat.one("fresh", message_id="m-4") != first


async def test_racing_retries_get_one_answer(chat: Chat) -> None:
    answers = await asyncio.gather(*(chat.one("fresh", message_id="m-5") for _ in range(4)))
    assert len({a.text for a in answers}) == 1


async def test_an_asynchronous_platform_gets_the_deferred_answer_queued(vault_url: str) -> None:
    fake = FakeAdapter("fake")
    chat = await start_chat(vault_url, adapters=[fake], extra_plugins=[Commands()])
    try:
        message = InboundMessage(
            sender=Identity("fake", "alice", "Alice"),
            channel=Channel("fake", "room"),
            text="fresh",
            message_id="f-1",
            sync_reply=False,
        )
        [reply] = await chat.services.handle(message)
        assert [m.text for m in await fake.wait_for(1)] == [reply.text]
        assert await chat.services.handle(message) == []  # a redelivery: answered once
        assert await count(chat, OutboxRow) == 1
    finally:
        await chat.stop()


def test_fractions_cross_processes_whole() -> None:
    """They are rebuilt without a gcd (a worker's are in lowest terms already): the same values."""
    for value in (Fraction(0), Fraction(-3, 2), Fraction(6, 4), Fraction(7**900, 2**3000)):
        back = ForkingPickler.loads(ForkingPickler.dumps(value))
        assert (back, back.numerator, back.denominator, hash(back)) == (
            value,
            value.numerator,
            value.denominator,
            hash(value),
        )


async def test_without_workers_it_computes_on_the_loop() -> None:
    offload = Offload(0, 1.0)
    assert await offload.run(os.getpid) == os.getpid()
    assert not offload.started


async def test_what_ran_out_of_the_whole_bound_is_refused_at_once_after() -> None:
    offload = Offload(1, 60.0)
    try:
        assert await offload.run(spin, 0.0) == "done"  # the worker is up, with this module loaded
        offload.timeout = 1.0
        with pytest.raises(TooLong):
            await offload.run(spin, 60.0)
        pool, offload._pool = offload._pool, None  # nothing may be submitted now
        with pytest.raises(TooLong):
            await offload.run(spin, 60.0)
        assert offload._pool is None  # refused before any pool was asked
        offload._pool = pool
        assert await offload.run(spin, 0.0) == "done"  # another computation still runs
    finally:
        await offload.shutdown()


async def test_a_retried_http_request_gets_the_same_odds_answer(vault_url: str) -> None:
    settings = Settings(vault={"url": vault_url, "owner": "http:alpha"}, http={"tokens": {"alpha": TOKEN}})
    gateway = Gateway(settings, platforms=("http",), extra_plugins=[Commands()])
    await gateway.upgrade_vault()
    client = TestClient(TestServer(build_app(gateway)))
    await client.start_server()
    try:

        async def post(text: str, key: str) -> Any:
            headers = {"Authorization": f"Bearer {TOKEN}", "Idempotency-Key": key}
            async with client.post("/api/v1/command", json={"text": text}, headers=headers) as resp:
                assert resp.status == 200
                return await resp.json()

        assert (await post("system dramatic", "k-0"))["replies"]
        first = await post("odds 10 spec vs 9 spec", "k-1")
        assert first["replies"][0]["result"]["kind"] == "odds"
        assert await post("odds 10 spec vs 9 spec", "k-1") == first
        racing = await asyncio.gather(*(post("fresh", "k-2") for _ in range(3)))
        assert all(r == racing[0] for r in racing)
    finally:
        await client.close()
