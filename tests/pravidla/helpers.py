"""Shared helpers for the Pravidla tests."""

from __future__ import annotations

from sqlmodel import col, func, select

from gateway.vault.models import Audit, RollLog, StlogEntry
from tests.conftest import Chat


async def make_character(chat: Chat, owner: str, name: str, **traits: int | str) -> None:
    reply = await chat.one(f"char new {name}", as_=owner)
    assert reply.error is None, reply.text
    for field, value in traits.items():
        reply = await chat.one(f"st set {name} {field} {value}", as_="st", st=True)
        assert reply.error is None, reply.text


async def count(chat: Chat, model: type) -> int:
    async with chat.services.vault.transaction() as session:
        return int((await session.exec(select(func.count()).select_from(model))).one())


async def rows(chat: Chat, model: type) -> list:
    async with chat.services.vault.transaction() as session:
        return list((await session.exec(select(model).order_by(col(model.id)))).all())


__all__ = ["Audit", "RollLog", "StlogEntry", "count", "make_character", "rows"]
