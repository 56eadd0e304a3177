"""Wound penalties: off by default; when the chronicle switches them on, -1 from 4 damage and -2 from 7,
on every pool read from a character's sheet, shown in the roll line."""

from __future__ import annotations

from gateway.testing import Chat, start_chat
from tests.conflict.helpers import make_character

MIND_LOCK = {"name": "Mind Lock", "tier": "adept", "trait": "mental"}


async def test_off_by_default(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", physical=3, damage=9)
    chat.dice.extend([9, 5, 10])
    reply = await chat.one("roll physical", as_="mira")
    assert reply.result is not None and reply.result["pool"] == 3
    assert "wound_penalty" not in reply.result and "wounds" not in reply.text


async def test_roll_lines_show_the_penalty(wounded_chat: Chat) -> None:
    chat = wounded_chat
    # Bo is Mira's player's other character: rolling his dice needs no other player's answer.
    await make_character(chat, "mira", "Bo", mental=3, damage=7)
    await make_character(chat, "mira", "Mira", physical=3, mental=4, damage=4, powers=[MIND_LOCK])
    chat.dice.extend([9, 5, 1])
    reply = await chat.one("roll physical +1", as_="mira")
    r = reply.result
    assert r is not None and (r["pool"], r["wound_penalty"]) == (3, -1)
    assert reply.text == f"Mira rolls Physical 3+1 (wounds -1) = 3 dice: 9 5 1 → 0 (Failure) #{r['id']}"
    # A bare number is taken as written.
    chat.dice.extend([9, 5, 10])
    r = (await chat.one("roll 3", as_="mira")).result
    assert r is not None and r["pool"] == 3 and "wound_penalty" not in r
    # Against another character's trait, each side carries its own wounds.
    chat.dice.extend([7, 7, 7, 8])
    reply = await chat.one("roll mental vs Bo mental", as_="mira")
    r = reply.result
    assert r is not None and [s["pool"] for s in r["sides"]] == [3, 1]
    assert [s.get("wound_penalty") for s in r["sides"]] == [-1, -2]
    assert "Mental 4 (wounds -1)" in reply.text and "Mental 3 (wounds -2)" in reply.text
    chat.dice.extend([7, 7, 7])
    reply = await chat.one("power use Mind Lock", as_="mira")
    assert reply.result is not None and reply.result["pool"] == 3 and reply.result["wound_penalty"] == -1
    assert "Mental 4 (wounds -1)" in reply.text
    chat.dice.extend([7])
    reply = await chat.one("st rollstat Bo mental", as_="st", st=True)
    assert reply.result is not None and reply.result["pool"] == 1 and "Mental 3 (wounds -2)" in reply.text


async def test_a_penalty_can_leave_a_chance_die(wounded_chat: Chat) -> None:
    await make_character(wounded_chat, "mira", "Mira", physical=1, damage=4)
    wounded_chat.dice.extend([10])
    r = (await wounded_chat.one("roll physical", as_="mira")).result
    assert r is not None and r["chance_die"] is True and r["total"] == 1


async def test_thresholds_are_settings(vault_file: str) -> None:
    chat = await start_chat(vault_file, nightcap={"wound_penalties": True, "wound_thresholds": [2, 3]})
    try:
        await make_character(chat, "mira", "Mira", physical=4, damage=3)
        chat.dice.extend([9, 9])
        r = (await chat.one("roll physical", as_="mira")).result
        assert r is not None and r["pool"] == 2
    finally:
        await chat.gateway.stop()
