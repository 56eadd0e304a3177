"""Every conflict roll is in the roll log under its public id and in the Storyteller log with it."""

from __future__ import annotations

from sqlmodel import select

from gateway.testing import Chat
from gateway.vault.models import Pool, RollLog
from tests.conflict.helpers import make_character, pool


async def test_every_roll_reaches_both_logs(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", physical=3, mental=2)
    await make_character(chat, "bo", "Bo", physical=2, mental=2)
    await make_character(chat, "hal", "Hal")
    chat.dice.extend([7] * 200)
    await chat.one("init start", as_="st", st=True)
    await chat.one("init join", as_="mira")
    await chat.one("init join Ghoul 3", as_="st", st=True)
    await chat.one("init roll", as_="st", st=True)
    await chat.one("init join", as_="bo")  # another player's character is attacked in a fight
    await chat.one("attack Bo +1", as_="mira")
    await chat.one("attack Mira as Ghoul", as_="st", st=True)
    await chat.one("extended start 5 3 mental", as_="mira")
    await chat.one("extended roll", as_="mira")
    await chat.one("team start physical", as_="bo")
    await chat.one("assist", as_="hal")
    await chat.one("team roll", as_="bo")
    await chat.one("challenge Bo social", as_="mira")
    await chat.one("defend mental", as_="bo")
    async with chat.services.vault.transaction() as session:
        rolls = (await session.exec(select(RollLog))).all()
    logged_ids = {e.result.get("id") for e in await chat.stlog()}
    kinds = sorted(r.kind for r in rolls)
    assert kinds == sorted([*["initiative_roll"] * 3, "attack", "attack", "extended", "team", "contest"])
    assert {r.public_id for r in rolls} <= logged_ids
    for r in rolls:
        assert r.result["id"] == r.public_id


async def test_a_longer_health_track_from_the_pool(chat: Chat) -> None:
    dorian = await make_character(chat, "dorian", "Dorian", physical=1)
    await make_character(chat, "mira", "Mira", physical=3)
    await chat.one("init start", as_="mira")
    await chat.one("init join", as_="dorian")  # another player's character is attacked in a fight
    await chat.one("init join", as_="mira")
    chat.dice.extend([2, 10, 10, 10])  # order: Mira 6, Dorian 0
    await chat.one("init roll", as_="mira")
    async with chat.services.vault.transaction() as session:
        row = await session.get(Pool, (dorian, "damage"))
        assert row is not None
        row.current, row.maximum = 9, 12
        session.add(row)
    chat.dice.extend([10, 2, 2, 5])  # 2 vs 0
    r = (await chat.one("attack Dorian", as_="mira")).result
    assert r is not None and r["health"] == {"before": 9, "after": 11, "levels": 12}
    assert r["incapacitated"] is False
    assert await pool(chat, dorian, "damage") == 11
    await chat.one("init next", as_="mira")  # one meaningful action a turn: round 2 for the next
    await chat.one("init next", as_="dorian")
    chat.dice.extend([10, 10, 2, 5])
    r = (await chat.one("attack Dorian", as_="mira")).result
    assert r is not None and r["health"]["after"] == 12 and r["incapacitated"] is True
