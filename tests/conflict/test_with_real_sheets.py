"""The conflict commands on characters made the way players make them (char new ... st approve), with
the pools the characters work fills, and the Health track the health command reads."""

from __future__ import annotations

from gateway.testing import Chat
from tests.nightcap.helpers import build, ok, pools, refused


async def test_made_characters_fight_contest_and_clash_powers(chat: Chat) -> None:
    # Mira: Physical 3, Mental 3, Social 2, Spirit 2; Shadow Step (Adept, Physical), Ward (Basic, Spirit).
    await build(chat, "Mira", "mira")
    await build(
        chat, "Dorian", "dorian", traits=(("physical", 2), ("mental", 4), ("social", 3), ("spirit", 1))
    )
    assert (await pools(chat, "Dorian"))["willpower"] == (5, 5)

    # A challenge with Willpower on both sides.
    await ok(chat, "challenge Dorian social wp", "mira")
    chat.dice.extend([7, 2, 8, 8, 1])
    r = (await ok(chat, "defend social wp", "dorian")).result
    assert r is not None and [s["total"] for s in r["sides"]] == [2, 2] and r["outcome"] == "deadlock"
    assert (await pools(chat, "Mira"))["willpower"] == (4, 5)
    assert (await pools(chat, "Dorian"))["willpower"] == (4, 5)

    # A fight: the Storyteller sets a soak, Mira strikes; the damage shows on Dorian's health track.
    await ok(chat, "st soak Dorian 1", "ana", st=True)
    await ok(chat, "init start", "ana", st=True)
    await ok(chat, "init join", "mira")
    await ok(chat, "init join", "dorian")
    chat.dice.extend([10, 2, 2, 7, 2])
    await ok(chat, "init roll", "mira")
    chat.dice.extend([10, 10, 9, 2, 2])
    r = (await ok(chat, "attack Dorian", "mira")).result
    assert r is not None and (r["margin"], r["soak"], r["damage"]) == (5, 1, 4)
    health = await ok(chat, "health", "dorian")
    assert health.result is not None and (health.result["damage"], health.result["levels"]) == (4, 10)
    await ok(chat, "init next", "mira")  # "One meaningful action" a turn: round 2 for the power
    await ok(chat, "init next", "dorian")

    # Powers against powers: Mira's Shadow Step (Adept) against Dorian's Mental, a mundane defence.
    # Dorian is another player's character, so he rolls his defence himself, answering the challenge.
    await ok(chat, "power use Shadow Step vs Dorian mental", "mira")
    chat.dice.extend([7, 7, 7, 7, 2, 2, 2, 2])  # Physical 3 + 1 tier; Dorian Mental 4
    r = (await ok(chat, "defend mental", "dorian")).result
    assert r is not None and [s["pool"] for s in r["sides"]] == [4, 4] and r["winner"] == 0
    assert (await pools(chat, "Mira"))["essence"] == (9, 10)
    text = await refused(chat, "power use Shadow Step vs Dorian Shadow Step", "mira")
    assert text == (
        "Spending Dorian's Essence is for Dorian's player: write power use Shadow Step vs Dorian, and they"
        " answer with defend power NAME [TIER]."
    )
