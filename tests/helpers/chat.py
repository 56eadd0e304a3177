"""Chats that play a rule system, lines said in a chat room, characters made for a test, and
the vault rows a test reads back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from sqlmodel import func, select

from gateway.core.types import Channel, Identity, InboundMessage, Reply
from gateway.testing import Chat, start_chat


async def play(chat: Chat, system: str, as_: str) -> Chat:
    """Switch the chat's channel to ``system`` (said by a Storyteller called ``as_``)."""
    reply = await chat.one(f"system {system}", as_=as_, st=True)
    assert reply.error is None, reply.text
    return chat


@asynccontextmanager
async def playing(vault_url: str, system: str) -> AsyncIterator[Chat]:
    """A chat over a fresh vault whose ``main`` channel plays ``system``; stopped afterwards."""
    chat = await start_chat(vault_url)
    yield await play(chat, system, as_="gm")
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


async def make_character(chat: Chat, owner: str, name: str, **traits: int | str) -> None:
    """``char new NAME`` by ``owner``, then a Storyteller's ``st set NAME FIELD VALUE`` for each field."""
    reply = await chat.one(f"char new {name}", as_=owner)
    assert reply.error is None, reply.text
    for field, value in traits.items():
        reply = await chat.one(f"st set {name} {field} {value}", as_="st", st=True)
        assert reply.error is None, reply.text


async def count(chat: Chat, model: Any) -> int:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(func.count()).select_from(model))
        return int(found.one())


async def rows(chat: Chat, model: Any) -> list[Any]:
    """Every row of ``model``, by primary key."""
    async with chat.services.vault.transaction() as session:
        found = await session.exec(select(model).order_by(*model.__table__.primary_key.columns))
        return list(found.all())


async def always_answered(chat: Chat, line: str) -> None:
    """Said by a player and by a Storyteller, ``line`` gets an answer and never an internal error."""
    for st_role in (False, True):
        for reply in await chat.say(line, as_="gm" if st_role else "alice", st=st_role):
            assert reply.error != "internal", (line, reply)
            assert reply.text
