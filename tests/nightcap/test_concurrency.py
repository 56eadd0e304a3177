"""50 concurrent Willpower spends against a pool of 3: exactly 3 rolls, 47 clear refusals, on every engine."""

from __future__ import annotations

import asyncio

from sqlmodel import col, select

from gateway.testing import Chat
from gateway.vault.models import RollLog
from tests.nightcap.helpers import build, pools, set_pool


async def test_fifty_concurrent_willpower_spends(any_chat: Chat) -> None:
    chat = any_chat
    await build(chat)
    await set_pool(chat, "Mira", "willpower", 3)
    chat.dice.extend([7] * 3)  # only the three winners roll a die: a fourth roll would exhaust the script
    results = await asyncio.gather(*(chat.say("roll 1 wp", "mira") for _ in range(50)))
    replies = [r[0] for r in results]
    rolled = [r for r in replies if r.error is None]
    refused = [r for r in replies if r.error is not None]
    assert len(rolled) == 3
    assert len(refused) == 47
    assert {r.text for r in refused} == {"Mira has no Willpower left to spend."}
    assert all(r.result is not None and r.result["total"] == 2 for r in rolled)
    assert (await pools(chat, "Mira"))["willpower"] == (0, 5)
    assert chat.dice.remaining == 0
    async with chat.services.vault.transaction() as session:
        logged = (await session.exec(select(RollLog).where(col(RollLog.kind) == "roll"))).all()
    assert sorted(r.public_id for r in logged) == sorted(str(r.result["id"]) for r in rolled)  # type: ignore[index]


async def test_concurrent_checkins_give_one(any_chat: Chat) -> None:
    chat = any_chat
    await build(chat)
    await set_pool(chat, "Mira", "essence", 0)
    chat.dice.extend([7, 7])
    results = await asyncio.gather(*(chat.say("checkin", "mira") for _ in range(10)))
    replies = [r[0] for r in results]
    assert sum(r.error is None for r in replies) == 1
    assert (await pools(chat, "Mira"))["essence"] == (2, 10)
