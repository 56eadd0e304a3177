"""The conflict state (KeyValue and SceneState rows, row locks, claims) on every vault engine."""

from __future__ import annotations

import asyncio

from gateway.testing import Chat
from tests.conflict.helpers import make_character, pool

POWER = {"name": "Mind Lock", "tier": "adept", "trait": "mental"}


async def test_challenge_fight_and_power_contest(any_chat: Chat) -> None:
    chat = any_chat
    mira = await make_character(chat, "mira", "Mira", physical=3, mental=3, powers=[POWER])
    dorian = await make_character(chat, "dorian", "Dorian", physical=2, mental=2)
    assert (await chat.one("challenge Dorian social wp", as_="mira")).error is None
    chat.dice.extend([10, 2, 2])  # Mira Social 1 + WP: 3; Dorian Mental 2: 0
    r = (await chat.one("defend mental", as_="dorian")).result
    assert r is not None and (r["outcome"], r["winner"], r["margin"]) == ("clear", 0, 3)
    await chat.one("init start", as_="st", st=True)
    await chat.one("init join Ghoul 4", as_="st", st=True)
    await chat.one("init join", as_="dorian")
    await chat.one("st soak Dorian 1", as_="st", st=True)
    chat.dice.extend([7, 7, 2, 2, 10, 3])
    await chat.one("init roll", as_="st", st=True)
    chat.dice.extend([10, 10, 8, 3, 2, 7, 4])
    r = (await chat.one("attack Dorian +1 as Ghoul", as_="st", st=True)).result
    assert r is not None and (r["margin"], r["outcome"], r["damage"]) == (4, "decisive", 3)
    assert await pool(chat, dorian, "damage") == 3
    chat.dice.extend([7, 7, 7, 7, 2, 2])
    # As the Storyteller: Dorian's player would otherwise answer his defence himself.
    r = (await chat.one("power use Mind Lock vs Dorian mental", as_="mira", st=True)).result
    assert r is not None and r["winner"] == 0
    assert await pool(chat, mira, "essence") == 9
    assert await pool(chat, mira, "willpower") == 3  # 4 - 1 for the challenge


async def test_racing_defences_settle_one_challenge_once(any_chat: Chat) -> None:
    chat = any_chat
    await make_character(chat, "mira", "Mira", social=2)
    await make_character(chat, "dorian", "Dorian", mental=2)
    await chat.one("challenge Dorian social", as_="mira")
    chat.dice.extend([7] * 8)
    results = await asyncio.gather(*(chat.say("defend mental", as_="dorian") for _ in range(2)))
    settled = [rs[-1] for rs in results if rs[-1].error is None]
    assert len(settled) == 1
    assert chat.dice.remaining == 4
