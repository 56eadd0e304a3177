"""The router runs one platform message once, whatever the adapters do: two gateway processes on one
vault handed the same message (same platform message id) at the same moment run it once between
them; the same text under another id is another message (a player may roll ``3`` twice)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func
from sqlmodel import select

from gateway.core.app import Gateway
from gateway.core.dice import SeededDice
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.vault.models import OutboxRow, RollLog


@pytest.fixture
async def pair(vault_url: str) -> AsyncIterator[tuple[Gateway, Gateway]]:
    settings = Settings(vault={"url": vault_url}, http={"enabled": False})
    first = Gateway(settings, dice=SeededDice(1), platforms=())
    second = Gateway(settings, dice=SeededDice(2), platforms=())
    await first.upgrade_vault()
    await first.start()
    await second.start()
    try:
        yield first, second
    finally:
        await second.stop()
        await first.stop()


def message(msgid: str) -> InboundMessage:
    return InboundMessage(
        sender=Identity("irc", "test/~alice", "alice", verified=False),
        channel=Channel("irc", "test/#game"),
        text="!roll 3",
        message_id=f"test/{msgid}",
        prefixed=True,
        sync_reply=False,
    )


async def count(gateway: Gateway, model: type) -> int:
    async with gateway.services.vault.transaction() as session:
        return int((await session.exec(select(func.count()).select_from(model))).one())


async def test_two_processes_given_one_message_run_it_once(pair: tuple[Gateway, Gateway]) -> None:
    first, second = pair
    for n in range(5):
        msg = message(f"msg-{n}")
        replies = await asyncio.gather(first.services.handle(msg), second.services.handle(msg))
        assert sorted(len(r) for r in replies) == [0, 1], replies
    assert await count(first, RollLog) == 5
    assert await count(first, OutboxRow) == 5  # one reply each


async def test_the_same_text_under_another_id_is_another_message(pair: tuple[Gateway, Gateway]) -> None:
    first, second = pair
    await first.services.handle(message("a"))
    await second.services.handle(message("b"))
    await first.services.handle(message("a"))  # a redelivery
    assert await count(first, RollLog) == 2
