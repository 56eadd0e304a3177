"""The vault paths of both d6 systems on every engine (SQLite; PostgreSQL when configured): pool
spends, damage under a row lock, scene state documents."""

from __future__ import annotations

from gateway.testing import Chat


async def test_blood_damage_and_scene_state_on_every_engine(any_chat: Chat) -> None:
    chat = any_chat
    assert (await chat.one("system nightwanderers", as_="st", st=True)).error is None
    assert (await chat.one("char new Maxina", as_="olga")).error is None
    assert (await chat.one("boost 3", as_="olga")).result["blood"] == 4
    assert (await chat.one("boost 3", as_="olga")).error is not None
    assert (await chat.one("damage 6 Maxina", as_="st", st=True)).result["target"]["hp"] == 19
    assert (await chat.one("heal 2", as_="olga")).result["hp"] == 21
    chat.dice.extend([4, 1])
    await chat.one("sneak vs 1", as_="olga")
    await chat.one("init add Guard", as_="st", st=True)
    assert (await chat.one("init")).result["entries"][0]["name"] == "Guard"


async def test_pravidla_state_on_every_engine(any_chat: Chat) -> None:
    chat = any_chat
    assert (await chat.one("system pravidla", as_="st", st=True)).error is None
    await chat.one("tug start Bear 2 2 vs 2")
    chat.dice.extend([6, 1, 1, 1])
    assert (await chat.one("tug roll")).result["balance"] == 1
    assert (await chat.one("tug")).result["tug"]["balance"] == 1
    assert (await chat.one("st set Nobody šarm 2", as_="st", st=True)).error is not None
