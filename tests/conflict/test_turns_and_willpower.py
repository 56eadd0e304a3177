"""Third pass (issue 31): one meaningful action a turn where a fight has an order, and Willpower that
either side of a contest declares before the dice, the defender in combat included."""

from __future__ import annotations

from gateway.testing import Chat
from tests.conflict.helpers import make_character, pool

ST = {"as_": "st", "st": True}


async def mira_bo_and_a_ghoul(chat: Chat) -> tuple[int, int]:
    """Mira (Physical 3) and Bo (Physical 2, Willpower 4), two players' characters, and a Ghoul
    (Physical 2) in a fight whose order is Mira, Bo, Ghoul: Mira's turn."""
    mira = await make_character(chat, "mira", "Mira", physical=3)
    bo = await make_character(chat, "bo", "Bo", physical=2, mental=2, spirit=2)
    assert (await chat.one("init start", **ST)).error is None
    assert (await chat.one("init join", as_="mira")).error is None
    assert (await chat.one("init join", as_="bo")).error is None
    assert (await chat.one("init join Ghoul 2", **ST)).error is None
    chat.dice.extend([10, 10, 10, 10, 2, 7, 2])  # Mira 6, Bo 2, Ghoul 1
    order = await chat.one("init roll", **ST)
    assert order.result is not None and [e["name"] for e in order.result["order"]] == ["Mira", "Bo", "Ghoul"]
    return mira, bo


async def test_one_meaningful_action_a_turn(chat: Chat) -> None:
    """ "Your turn. One meaningful action — a strike, a power, a run for the door" and "Defence.
    Defending is not an action. You roll against every attack that comes at you, on other people's
    turns." The Storyteller "has the final say on every rule in this book"."""
    await mira_bo_and_a_ghoul(chat)
    chat.dice.extend([7, 2, 2, 2, 2])
    assert (await chat.one("attack Ghoul", as_="mira")).error is None
    again = await chat.one("attack Ghoul", as_="mira")
    assert (again.error, again.text) == (
        "invalid",
        "Mira has taken this turn's one meaningful action: init next passes the turn (a Storyteller may"
        " still act for them).",
    )
    early = await chat.one("attack Ghoul", as_="bo")
    assert early.text == (
        "It is Mira's turn, not Bo's: one meaningful action a turn, on your own (init list shows the order)."
    )
    assert chat.dice.remaining == 0  # no die was thrown for a refused attack
    chat.dice.extend([7, 2, 2, 2, 2])
    assert (await chat.one("attack Ghoul as Mira", **ST)).error is None  # the Storyteller overrides
    assert (await chat.one("init next", as_="mira")).text == "Bo acts."
    chat.dice.extend([7, 2, 2, 2])
    assert (await chat.one("attack Ghoul", as_="bo")).error is None
    assert (await chat.one("attack Ghoul", as_="mira")).text.startswith("It is Bo's turn, not Mira's")


async def test_an_attack_before_the_order_is_rolled_waits_for_it(chat: Chat) -> None:
    """ "Combat is a contest run in turns. When it starts, everyone involved rolls once for order.\""""
    await make_character(chat, "mira", "Mira", physical=3)
    await make_character(chat, "bo", "Bo", physical=2)
    await chat.one("init start", as_="mira")
    await chat.one("init join", as_="bo")
    late = await chat.one("attack Bo", as_="mira")
    assert late.text == "Mira is not in this fight: init join first, then act on your turn."
    await chat.one("init join", as_="mira")
    early = await chat.one("attack Bo", as_="mira")
    assert early.text == "The order is not rolled yet: init roll first; then Mira acts on their turn."


async def test_the_defender_declares_willpower_before_the_dice(chat: Chat) -> None:
    """ "Both roll. Willpower may be spent by either, and is declared before the dice"; "An attack is
    a contested roll". The attack comes on Mira's turn, so Bo declares beforehand: init wp."""
    _, bo = await mira_bo_and_a_ghoul(chat)
    declared = await chat.one("init wp", as_="bo")
    assert declared.text == (
        "Bo declares Willpower for the next defence: 1 point spent now, +1 to the roll against the next"
        " attack in this fight (init wp off takes it back)."
    )
    assert await pool(chat, bo, "willpower") == 3
    assert (await chat.one("init wp", as_="bo")).error == "invalid"  # one point a defence
    chat.dice.extend([8, 7, 2, 7, 2])  # Mira 2 vs Bo 1 +1 WP = 2: a deadlock, no damage
    reply = await chat.one("attack Bo", as_="mira")
    r = reply.result
    assert r is not None, reply.text
    assert [(s["willpower"], s["total"]) for s in r["sides"]] == [(False, 2), (True, 2)]
    assert (r["outcome"], r["damage"]) == ("deadlock", 0)
    assert "vs Bo Physical 2: 7 2 +1 WP → 2 (Solid)" in reply.text
    assert await pool(chat, bo, "willpower") == 3  # paid once, at the declaration
    # Spent on that defence: the next attack finds none declared.
    await chat.one("init next", as_="mira")
    await chat.one("init next", as_="bo")
    chat.dice.extend([2, 2, 2, 2])
    r = (await chat.one("attack Bo as Ghoul", **ST)).result
    assert r is not None and r["sides"][1]["willpower"] is False
    # Taken back, or returned when the fight ends unused.
    await chat.one("init wp", as_="bo")
    assert (await chat.one("init wp off", as_="bo")).text.endswith("the point is returned.")
    assert await pool(chat, bo, "willpower") == 3
    await chat.one("init wp", as_="bo")
    ended = await chat.one("init end", **ST)
    assert ended.text.endswith("Willpower declared for a defence is returned to Bo.")
    assert await pool(chat, bo, "willpower") == 3


async def test_only_the_defenders_player_spends_their_willpower(chat: Chat) -> None:
    await mira_bo_and_a_ghoul(chat)
    other = await chat.one("attack Bo vs physical wp", as_="mira")
    assert other.text == (
        "Bo's player declares their own Willpower, before the dice: with init wp in the fight, spent on"
        " the next attack on them."
    )
    npc = await chat.one("attack Ghoul vs physical wp", as_="mira")
    assert npc.text == "An NPC cannot spend Willpower; its pool is just dice."
    assert (await chat.one("init wp", as_="st", st=True)).error == "invalid"  # no character of theirs


async def test_willpower_on_the_right_of_vs_is_that_sides_own(chat: Chat) -> None:
    """ "Willpower may be spent by either": the other side's point, where the roller rolls both."""
    mira = await make_character(chat, "mira", "Mira", physical=3, mental=2, spirit=2)
    npc = await chat.one("roll 3 vs 3 wp", as_="mira")
    assert npc.text == (
        "An NPC's pool is just dice and has no Willpower to spend: write wp on your own side, left of vs."
    )
    both = await chat.one("roll physical wp vs mental wp", as_="mira")
    assert both.text == "Both sides are Mira's: declare Willpower on one side only."
    assert await pool(chat, mira, "willpower") == 4
    chat.dice.extend([7, 2, 2, 7, 2])
    reply = await chat.one("roll physical vs mental wp", as_="mira")
    assert reply.result is not None, reply.text
    assert [s["willpower"] for s in reply.result["sides"]] == [False, True]
    assert await pool(chat, mira, "willpower") == 3


async def test_a_power_is_the_turns_action_too(chat: Chat) -> None:
    """ "One meaningful action — a strike, a power, a run for the door": in a fight, a power is used on
    one's own turn and is that turn's action."""
    ward = [{"name": "Ward", "tier": "basic", "trait": "spirit"}]
    mira = await make_character(chat, "mira", "Mira", physical=3, powers=ward)
    bo = await make_character(chat, "bo", "Bo", physical=2, powers=ward)
    await chat.one("init start", **ST)
    await chat.one("init join", as_="mira")
    await chat.one("init join", as_="bo")
    chat.dice.extend([10, 10, 10, 2, 2])  # Mira 6, Bo 0
    await chat.one("init roll", **ST)
    early = await chat.one("power use Ward", as_="bo")
    assert early.text.startswith("It is Mira's turn, not Bo's")
    chat.dice.extend([7])
    assert (await chat.one("power use Ward", as_="mira")).error is None
    chat.dice.extend([7, 2, 2])
    strike = await chat.one("attack Bo", as_="mira")
    assert strike.text.startswith("Mira has taken this turn's one meaningful action")
    assert chat.dice.remaining == 3 and await pool(chat, bo, "damage") == 0
    assert await pool(chat, mira, "essence") == 10  # Basic is free


async def test_words_after_commands_that_take_none_are_refused(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira")
    for line in ("concede now", "extended status please", "extended abandon it", "team status here"):
        reply = await chat.one(line, as_="mira")
        command = line.rsplit(" ", 1)[0]
        assert reply.text == f"{command} takes nothing after it. Write {command}.", line
