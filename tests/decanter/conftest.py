"""Decanter test helpers: a chat whose channels play Decanter, and prefixed chat-room messages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlmodel import func, select

from gateway.types import Channel, Identity, InboundMessage, Reply
from tests.conftest import Chat, start_chat


@pytest.fixture
async def dec(vault_url: str) -> AsyncIterator[Chat]:
    """A chat over a fresh vault (SQLite; PostgreSQL too when configured); ``main`` plays Decanter."""
    chat = await start_chat(vault_url)
    reply = await chat.one("system decanter", as_="gm", st=True)
    assert reply.error is None, reply.text
    yield chat
    await chat.gateway.stop()


async def room(
    chat: Chat, text: str, as_: str = "alice", *, channel: str = "#game", st: bool = False
) -> list[Reply]:
    """A line said in a chat room (IRC-like): only prefixed text is a command, except bare commands."""
    message = InboundMessage(
        sender=Identity(platform="irc", id=as_, display_name=as_.title()),
        channel=Channel(platform="irc", id=channel),
        text=text,
        prefixed=True,
        roles=frozenset({"storyteller"}) if st else frozenset(),
    )
    return await chat.services.router.handle(message)


async def count(chat: Chat, model: Any) -> int:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(func.count()).select_from(model))
        return int(found.one())


async def rows(chat: Chat, model: Any) -> list[Any]:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(model))
        return list(found.all())
