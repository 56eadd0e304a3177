"""Combat: the order and its ties, rounds, attacks with soak onto the Health track, incapacitation,
NPCs, wound penalties, permissions, and a fight that survives a restart."""

from __future__ import annotations

from gateway.testing import Chat, start_chat
from tests.conflict.helpers import make_character, pool, set_pool


async def ghoul_scene(chat: Chat) -> int:
    dorian = await make_character(chat, "dorian", "Dorian", physical=2, mental=2, spirit=2)
    assert (await chat.one("init start", as_="st", st=True)).error is None
    assert (await chat.one("init join Ghoul 4", as_="st", st=True)).error is None
    assert (await chat.one("init join", as_="dorian")).error is None
    soak = await chat.one("st soak Dorian 1", as_="st", st=True)
    assert soak.text == "Dorian now soaks 1."
    return dorian


async def test_the_ghoul_strikes_in_an_alley(chat: Chat) -> None:
    dorian = await ghoul_scene(chat)
    chat.dice.extend([7, 7, 2, 2, 10, 3])  # order: Ghoul 2 (Physical 4) before Dorian 2 (Physical 2)
    order = await chat.one("init roll", as_="st", st=True)
    assert order.result is not None
    assert [(e["name"], e["initiative"], e["tied"]) for e in order.result["order"]] == [
        ("Ghoul", 2, False),
        ("Dorian", 2, False),
    ]
    assert order.result["current"] == "Ghoul"
    chat.dice.extend([10, 10, 8, 3, 2, 7, 4])
    reply = await chat.one("attack Dorian +1 as Ghoul", as_="st", st=True)
    r = reply.result
    assert r is not None, reply.text
    assert (r["kind"], r["attacker"], r["defender"]) == ("attack", "Ghoul", "Dorian")
    assert [s["total"] for s in r["sides"]] == [5, 1]
    assert [s["pool"] for s in r["sides"]] == [5, 2]
    assert (r["margin"], r["outcome"], r["winner"], r["soak"], r["damage"]) == (4, "decisive", 0, 1, 3)
    assert r["health"] == {"before": 0, "after": 3, "levels": 10}
    assert r["incapacitated"] is False
    assert reply.text == (
        "Ghoul attacks Dorian: Ghoul rolls Physical 4+1 = 5 dice: 10 10 8 3 2 → 5 (Strong) vs Dorian"
        " Physical 2: 7 4 → 1 (Marginal): Decisive: Ghoul wins by 4 — soak 1, 3 damage"
        f" (Dorian 3/10). #{r['id']}"
    )
    assert await pool(chat, dorian, "damage") == 3


async def test_soak_never_takes_damage_below_zero_and_misses_do_nothing(chat: Chat) -> None:
    dorian = await ghoul_scene(chat)
    await chat.one("st soak Dorian 2", as_="st", st=True)
    chat.dice.extend([7, 5, 5, 5, 3, 4])  # 1 vs 0: narrow, margin 1, soak 2
    r = (await chat.one("attack Dorian as Ghoul", as_="st", st=True)).result
    assert r is not None and (r["hit"], r["margin"], r["damage"]) == (True, 1, 0)
    chat.dice.extend([7, 5, 5, 5, 8, 4])  # deadlock
    r = (await chat.one("attack Dorian as Ghoul", as_="st", st=True)).result
    assert r is not None and (r["outcome"], r["hit"], r["damage"]) == ("deadlock", False, 0)
    chat.dice.extend([2, 5, 5, 5, 10, 4])  # the defender wins
    reply = await chat.one("attack Dorian as Ghoul", as_="st", st=True)
    assert reply.result is not None and reply.result["winner"] == 1 and reply.result["damage"] == 0
    assert "— no damage #" in reply.text
    assert await pool(chat, dorian, "damage") == 0


async def test_ten_damage_incapacitates(chat: Chat) -> None:
    dorian = await ghoul_scene(chat)
    mira = await make_character(chat, "mira", "Mira", physical=3)
    await chat.one("init join", as_="mira")
    chat.dice.extend([7, 7, 7, 7, 10, 3, 2, 2, 2])  # Ghoul 4, Dorian 2, Mira 0
    await chat.one("init roll", as_="st", st=True)
    await set_pool(chat, dorian, "damage", 8)
    chat.dice.extend([10, 10, 2, 2, 2, 2, 2])  # 4 vs 0, soak 1: 3 damage, capped at 10
    reply = await chat.one("attack Dorian as Ghoul", as_="st", st=True)
    assert reply.result is not None and reply.result["incapacitated"] is True
    assert reply.result["health"] == {"before": 8, "after": 10, "levels": 10}
    assert reply.text.endswith(f"(Dorian 10/10). Dorian is Incapacitated. #{reply.result['id']}")
    assert await pool(chat, dorian, "damage") == 10
    refused = await chat.one("attack Ghoul", as_="dorian")
    assert refused.error == "invalid" and "Incapacitated" in refused.text
    again = await chat.one("attack Dorian as Ghoul", as_="st", st=True)
    assert again.text == "Dorian is already Incapacitated."
    # The turn passes over the fallen: Ghoul -> Mira -> (Dorian skipped) -> round 2, Ghoul.
    nxt = await chat.one("init next", as_="st", st=True)
    assert nxt.text == "Mira acts."
    nxt = await chat.one("init next", as_="mira")
    assert nxt.text == "Round 2 begins. Ghoul acts."
    listing = await chat.one("init list", as_="mira")
    assert "Dorian (2, Incapacitated)" in listing.text
    assert mira


async def test_npc_damage_and_soak_are_tracked_in_the_fight(chat: Chat) -> None:
    await ghoul_scene(chat)
    await make_character(chat, "mira", "Mira", physical=3)
    await chat.one("init join", as_="mira")
    chat.dice.extend([2, 2, 2, 2, 2, 2, 10, 10, 10])  # order: Mira 6, Ghoul 0 (Physical 4), Dorian 0
    await chat.one("init roll", as_="st", st=True)
    await chat.one("st soak Ghoul 1", as_="st", st=True)
    chat.dice.extend([10, 9, 8, 2, 2, 2, 2])  # Mira 4 vs Ghoul 0: margin 4, soak 1
    r = (await chat.one("attack ghoul", as_="mira")).result
    assert r is not None and (r["damage"], r["health"]["after"]) == (3, 3)
    listing = await chat.one("init list", as_="mira")
    assert listing.result is not None
    assert [(e["name"], e["damage"]) for e in listing.result["order"]] == [
        ("Mira", 0),
        ("Ghoul", 3),
        ("Dorian", 0),
    ]


async def test_ties_are_marked_and_moved_by_the_storyteller(chat: Chat) -> None:
    for who in ("ann", "bo", "cy"):
        await make_character(chat, who, who.title(), physical=2)
    await chat.one("init start", as_="ann")
    for who in ("ann", "bo", "cy"):
        await chat.one("init join", as_=who)
    chat.dice.extend([7, 3, 7, 4, 10, 2])  # Ann 1, Bo 1, Cy 2
    order = await chat.one("init roll", as_="ann")
    assert order.result is not None
    assert [(e["name"], e["tied"]) for e in order.result["order"]] == [
        ("Cy", False),
        ("Ann", True),
        ("Bo", True),
    ]
    assert order.text.endswith(
        "Round 1: 1. ▶ Cy (2), 2. Ann (1, tied with Bo), 3. Bo (1, tied with Ann)."
        " Ties are for the Storyteller: init move NAME POS."
    )
    refused = await chat.one("init move Bo 2", as_="bo")
    assert refused.error == "forbidden"
    moved = await chat.one("init move Bo 2", as_="st", st=True)
    assert moved.text == "Round 1: 1. ▶ Cy (2), 2. Bo (1), 3. Ann (1)."
    assert (await chat.one("init next", as_="bo")).error == "forbidden"  # it is Cy's turn
    assert (await chat.one("init next", as_="cy")).text == "Bo acts."
    assert (await chat.one("init next", as_="bo")).text == "Ann acts."
    assert (await chat.one("init next", as_="ann")).text == "Round 2 begins. Cy acts."
    assert (await chat.one("init roll", as_="ann")).error == "invalid"  # the order holds


async def test_higher_physical_breaks_a_tie_and_late_joiners_roll(chat: Chat) -> None:
    await make_character(chat, "ann", "Ann", physical=1)
    await make_character(chat, "bo", "Bo", physical=3)
    await chat.one("init start", as_="st", st=True)
    await chat.one("init join", as_="ann")
    await chat.one("init join", as_="bo")
    chat.dice.extend([8, 8, 2, 2])  # Ann 1 (Physical 1), Bo 1 (Physical 3)
    r = (await chat.one("init roll", as_="st", st=True)).result
    assert r is not None and [e["name"] for e in r["order"]] == ["Bo", "Ann"]
    chat.dice.extend([10, 10, 10])
    late = await chat.one("init join Brute 3", as_="st", st=True)
    assert late.result is not None and [e["name"] for e in late.result["order"]] == ["Brute", "Bo", "Ann"]
    assert late.result["current"] == "Bo"  # the turn does not jump to the newcomer


async def test_combat_permissions_and_refusals(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", physical=3)
    assert (await chat.one("init join", as_="mira")).error == "invalid"  # no fight yet
    await chat.one("init start", as_="st", st=True)
    assert (await chat.one("init start", as_="mira")).error == "invalid"
    assert (await chat.one("init join Ghoul 4", as_="mira")).error == "forbidden"
    assert (await chat.one("init join Ghoul", as_="st", st=True)).error == "invalid"
    await chat.one("init join Ghoul 4", as_="st", st=True)
    assert (await chat.one("init join Ghoul 2", as_="st", st=True)).text == "Ghoul is already in this fight."
    assert (await chat.one("attack Mira as Ghoul", as_="mira")).error == "forbidden"
    assert (await chat.one("attack Mira", as_="mira")).error == "invalid"
    assert (await chat.one("attack Ghoul vs physical wp", as_="mira")).error == "invalid"
    assert (await chat.one("st soak Mira 1", as_="mira")).error == "forbidden"
    assert (await chat.one("init end", as_="mira")).error == "forbidden"
    ended = await chat.one("init end", as_="st", st=True)
    assert ended.text == "The fight ends after 0 rounds."


async def test_storyteller_attacks_with_an_npc_outside_the_fight(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", physical=2)
    chat.dice.extend([9, 9, 9, 5, 5])  # Thug 3 dice -> 3 vs Mira 0
    r = (await chat.one("attack Mira 3 as Thug", as_="st", st=True)).result
    assert r is not None and (r["attacker"], r["damage"]) == ("Thug", 3)
    assert (await chat.one("attack Mira physical as Thug", as_="st", st=True)).error == "invalid"


async def test_a_fight_survives_a_restart(vault_file: str) -> None:
    chat = await start_chat(vault_file)
    await make_character(chat, "mira", "Mira", physical=2)
    await chat.one("init start", as_="st", st=True)
    await chat.one("init join Ghoul 4", as_="st", st=True)
    await chat.one("init join", as_="mira")
    chat.dice.extend([2, 2, 2, 2, 10, 10])
    await chat.one("init roll", as_="st", st=True)
    await chat.gateway.stop()
    chat = await start_chat(vault_file)
    try:
        listing = await chat.one("init list", as_="mira")
        assert listing.text == "Round 1: 1. ▶ Mira (4), 2. Ghoul (0)."
        assert (await chat.one("init next", as_="mira")).text == "Ghoul acts."
    finally:
        await chat.gateway.stop()


async def test_wound_penalty_applies_to_attacks(wounded_chat: Chat) -> None:
    chat = wounded_chat
    await make_character(chat, "mira", "Mira", physical=3, damage=7)
    await make_character(chat, "bo", "Bo", physical=2, damage=4)
    await chat.one("init start", as_="mira")
    await chat.one("init join", as_="mira")
    await chat.one("init join", as_="bo")  # another player's character is attacked in a fight
    chat.dice.extend([10, 10, 10, 2, 2])  # order (no modifiers, no wounds): Mira 6, Bo 0
    await chat.one("init roll", as_="mira")
    chat.dice.extend([9, 8])  # Mira 3-2 = 1 die; Bo 2-1 = 1 die
    reply = await chat.one("attack Bo", as_="mira")
    r = reply.result
    assert r is not None
    assert [(s["pool"], s["wound_penalty"]) for s in r["sides"]] == [(1, -2), (1, -1)]
    assert "Mira rolls Physical 3 (wounds -2) = 1 die: 9" in reply.text
    assert "Bo Physical 2 (wounds -1) = 1 die: 8" in reply.text
