"""Issue 19, Nightcap's roll side: negative first modifiers, Incapacitated characters, the
Storyteller's rolls, plural counts, the Storyteller's last word on modifiers, and contests against
another player's character. Each test quotes the passage of the book (000) it holds the gateway to."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlmodel import col, select

from gateway.testing import Chat
from gateway.vault.models import Audit, Character
from tests.conflict.helpers import make_character, pool, set_pool

SHADOW_STEP = {"name": "Shadow Step", "tier": "adept", "trait": "physical"}
ST = {"as_": "ana", "st": True}


async def mira_bob_and_a_rat(chat: Chat) -> tuple[int, int]:
    """Mira (Physical 3, Mental 3, Social 2, Spirit 2, Shadow Step at Adept) and Bob, another
    player's character (all 2), both in a fight here with a Rat (Physical 2); the order is rolled and
    it is Mira's turn."""
    bob = await make_character(chat, "bob", "Bob", physical=2, mental=2, social=2, spirit=2)
    mira = await make_character(
        chat, "mira", "Mira", physical=3, mental=3, social=2, spirit=2, powers=[SHADOW_STEP]
    )
    for line, kw in (
        ("init start", ST),
        ("init join", {"as_": "mira"}),
        ("init join", {"as_": "bob"}),
        ("init join Rat 2", ST),
    ):
        reply = await chat.one(line, **kw)
        assert reply.error is None, reply.text
    chat.dice.extend([10, 10, 10, 2, 2, 2, 2])  # order: Mira 6, Bob 0, Rat 0
    reply = await chat.one("init roll", **ST)
    assert reply.result is not None and reply.result["current"] == "Mira", reply.text
    return mira, bob


def pool_of(r: dict[str, Any]) -> int:
    return int(r["pool"])


def sides(r: dict[str, Any]) -> list[int]:
    return [int(s["pool"]) for s in r["sides"]]


# (setup lines, the command, who says it, what to read from the result, what it must be)
NEGATIVE_FIRST: list[tuple[list[str], str, dict[str, Any], Callable[[dict[str, Any]], Any], Any]] = [
    ([], "roll physical -1", {"as_": "mira"}, pool_of, 2),
    ([], "roll physical -3", {"as_": "mira"}, lambda r: (r["pool"], r["chance_die"]), (0, True)),
    ([], "roll physical -2 wp", {"as_": "mira"}, lambda r: (r["pool"], r["willpower"]), (1, True)),
    ([], "roll physical -1 +2", {"as_": "mira"}, pool_of, 4),
    ([], "roll 3 vs mental -1", {"as_": "mira"}, sides, [3, 2]),
    ([], "roll social -1 vs 2 -1", {"as_": "mira"}, sides, [1, 1]),
    ([], "odds physical -1", {"as_": "mira"}, lambda r: r["modifiers"], [-1]),
    ([], "odds physical -1 vs 3 -1", {"as_": "mira"}, lambda r: r["sides"][0]["modifiers"], [-1]),
    (["extended start 5 3"], "extended roll physical -1", {"as_": "mira"}, pool_of, 2),
    (["extended start 5 3 physical"], "extended roll -1", {"as_": "mira"}, pool_of, 2),
    (["extended start 5 3 physical"], "extended roll -2 wp", {"as_": "mira"}, pool_of, 1),
    ([], "team start physical -3", {"as_": "mira"}, lambda r: r["team"]["modifiers"], [-3]),
    ([], "challenge Bob social -1", {"as_": "mira"}, lambda r: r["challenger"]["label"], "Social 2-1"),
    (["challenge Mira social"], "defend mental -1", {"as_": "mira"}, sides, [2, 2]),
    ([], "attack Rat -1", {"as_": "mira"}, sides, [2, 2]),
    ([], "attack Rat physical -1 vs physical -1", {"as_": "mira"}, sides, [2, 1]),
    ([], "power use Shadow Step adept -1", {"as_": "mira"}, pool_of, 2),
    ([], "power use Shadow Step -1", {"as_": "mira"}, pool_of, 2),
    (
        [],
        "power use Shadow Step adept -1 wp",
        {"as_": "mira"},
        lambda r: (r["pool"], r["willpower"]),
        (2, True),
    ),
    ([], "power use Shadow Step adept -1 vs 3 -1", {"as_": "mira"}, sides, [2 + 1, 2]),
    ([], "st rollstat Mira physical -1", ST, pool_of, 2),
    ([], "st rollstat Mira physical -1 wp", ST, lambda r: (r["pool"], r["willpower"]), (2, True)),
    ([], "st roll 4 -1", ST, pool_of, 3),
    ([], "st roll 4 -1 vs 3 -1", ST, sides, [3, 2]),
]


@pytest.mark.parametrize(("setup", "command", "who", "read", "expected"), NEGATIVE_FIRST)
async def test_a_negative_first_modifier_is_a_modifier(
    chat: Chat,
    setup: list[str],
    command: str,
    who: dict[str, Any],
    read: Callable[[dict[str, Any]], Any],
    expected: Any,
) -> None:
    """ "roll a number of d10 equal to the relevant trait, plus or minus whatever the situation is
    worth"; "−1 to −2: Rushed, injured, distracted"; Mira's lock: "Physical 3 ... (+1) ... rushed
    (−1)". A minus written first was read as part of the trait's name ("Unknown trait
    'physical-1'"), on every command that takes modifiers, so the HUD's −1, −2 and −3 never worked."""
    await mira_bob_and_a_rat(chat)
    for line in setup:
        speaker = "bob" if line.startswith("challenge Mira") else "mira"
        assert (await chat.one(line, as_=speaker)).error is None
    chat.dice.extend([5] * 40)
    reply = await chat.one(command, **who)
    assert reply.error is None, reply.text
    assert reply.result is not None
    assert read(reply.result) == expected, reply.text


async def test_a_hyphen_inside_a_word_is_still_part_of_it(chat: Chat) -> None:
    """The reading splits a minus only before digits: a trait written with a hyphen keeps it
    (and is refused as the unknown word it is)."""
    from gateway.rules.roll_words import read_term

    assert read_term(["physical", "-1"]) == read_term(["physical-1"])
    term = read_term(["self-control", "-2", "+1"])
    assert term is not None and (term.base, term.modifiers) == ("self-control", (-2, 1))
    await make_character(chat, "mira", "Mira", physical=3)
    reply = await chat.one("roll physi-cal -1", as_="mira")
    assert reply.error == "invalid" and "'physi-cal'" in reply.text


# -- Incapacitated -----------------------------------------------------------------------------


INCAPACITATED_LINE = (
    "Mira is Incapacitated (10/10 damage) and can take no actions: their fate is in the scene's hands."
)
ACTIONS = [
    "roll physical",
    "roll physical wp",
    "roll physical -1",
    "roll 3 wp",
    "roll 3 vs mental",
    "power use Shadow Step",
    "power use Shadow Step adept +1 wp",
    "power use Shadow Step vs 3",
    "extended start 5 3 physical",
    "team start physical",
    "assist Bob",
    "challenge Bob social",
    "attack Rat",
]


@pytest.mark.parametrize("command", ACTIONS)
async def test_an_incapacitated_character_takes_no_actions(chat: Chat, command: str) -> None:
    """ "At 10 you are Incapacitated: no more actions, and your fate is in the scene's hands." Rolls
    from the sheet (or with Willpower) and power use went through at 10/10, power use spending
    Essence. Every action is refused with one line, before anything is spent or a die thrown."""
    mira, _ = await mira_bob_and_a_rat(chat)
    assert (await chat.one("team start social", as_="bob")).error is None
    await set_pool(chat, mira, "damage", 10)
    chat.dice.extend([5] * 20)
    reply = await chat.one(command, as_="mira")
    assert reply.error == "invalid", reply.text
    assert reply.text == INCAPACITATED_LINE
    assert chat.dice.remaining == 20
    assert await pool(chat, mira, "essence") == 10
    assert await pool(chat, mira, "willpower") == 5


async def test_incapacitated_defence_and_what_is_no_action(chat: Chat) -> None:
    """Answering a challenge is rolling too; looking, the odds, a bare practice pool, the daily
    check-in (the day's regeneration: "Once per real-world day the HUD rolls your Spirit for you")
    and the Storyteller's own commands are not actions of the character, and stay open."""
    mira, _ = await mira_bob_and_a_rat(chat)
    assert (await chat.one("challenge Mira social", as_="bob")).error is None
    await set_pool(chat, mira, "damage", 10)
    refused = await chat.one("defend mental", as_="mira")
    assert refused.error == "invalid" and refused.text == INCAPACITATED_LINE
    assert (await chat.one("concede", as_="mira")).error is None
    chat.dice.extend([5] * 10)
    for line, kw in (
        ("health", {"as_": "mira"}),
        ("odds physical", {"as_": "mira"}),
        ("roll 3", {"as_": "mira"}),
        ("checkin", {"as_": "mira"}),
        ("st rollstat Mira physical", ST),
    ):
        reply = await chat.one(line, **kw)
        assert reply.error is None, (line, reply.text)


# -- the Storyteller's rolls -------------------------------------------------------------------


async def test_st_roll_runs_a_contest(chat: Chat) -> None:
    """The ST HUD: "Roll — An ad-hoc or NPC roll. Enter a pool size"; its prompt offers "6 vs 3",
    and a contest is "Both roll ... The higher total wins, and the margin decides how completely"."""
    chat.dice.extend([9, 10, 7, 2, 3, 4, 8, 1, 5])  # 6 dice: 1+2+1 = 4; 3 dice: 1-1 = 0
    reply = await chat.one("st roll 6 vs 3", **ST)
    r = reply.result
    assert reply.error is None and r is not None, reply.text
    assert (r["kind"], r["outcome"], r["margin"], r["winner"]) == ("contest", "decisive", 4, 0)
    assert sides(r) == [6, 3] and [s["total"] for s in r["sides"]] == [4, 0]
    assert reply.text == (
        "NPC contest by Storyteller Ana: NPC rolls 6 dice: 9 10 7 2 3 4 → 4 (Strong) vs the opposition"
        f" 3 dice: 8 1 5 → 0 (Failure): Decisive: NPC wins by 4 #{r['id']}"
    )
    chat.dice.extend([7, 7, 7, 1, 2, 2])
    reply = await chat.one("st roll 4 +1 ghoul vs 1 guard", **ST)
    r = reply.result
    assert r is not None and (r["who"], r["against"], sides(r)) == ("ghoul", "guard", [5, 1]), reply.text
    assert "ghoul rolls 4+1 = 5 dice: 7 7 7 1 2 → 2 (Solid) vs guard" in reply.text
    # A label alone is still a label.
    chat.dice.extend([7, 7])
    r = (await chat.one("st roll 2 the night porter", **ST)).result
    assert r is not None and r["who"] == "the night porter" and r["kind"] == "roll"


async def test_st_roll_has_no_willpower_and_one_vs(chat: Chat) -> None:
    """Willpower is a character's ("Starting maximum equals Mental + Spirit"); "Against an NPC the
    NPC side is just a pool" (RULINGS). ``st roll 5 wp`` labelled the roll "wp"."""
    for line in ("st roll 5 wp", "st roll 5 vs 3 willpower"):
        reply = await chat.one(line, **ST)
        assert reply.error == "invalid" and reply.text == (
            "An NPC's pool is just dice and has no Willpower to spend; st rollstat NAME TRAIT wp spends"
            " a character's."
        )
    assert (await chat.one("st roll 5 vs 3 vs 2", **ST)).text == "A contest has two sides: write one vs."
    assert (await chat.one("st roll 5 vs", **ST)).error == "invalid"
    assert (await chat.one("st roll 5 vs ghoul", **ST)).error == "invalid"
    assert chat.dice.remaining == 0


async def test_st_rollstat_spends_the_characters_willpower(chat: Chat) -> None:
    """ "Roll Stat — Forces a roll on the character's own stats, with a prompt for a modifier";
    "Spend 1 before a roll and one success is guaranteed, whatever the dice do." ``st rollstat
    Anna social wp`` spent nothing and said nothing."""
    anna = await make_character(chat, "anna", "Anna", social=3, mental=2, spirit=1)
    chat.dice.extend([2, 3, 7])
    reply = await chat.one("st rollstat Anna social wp", **ST)
    r = reply.result
    assert reply.error is None and r is not None, reply.text
    assert (r["willpower"], r["dice_total"], r["total"]) == (True, 1, 2)
    assert reply.text == f"Storyteller Ana rolls Anna's Social 3: 2 3 7 +1 WP → 2 (Solid) #{r['id']}"
    assert await pool(chat, anna, "willpower") == 2
    await set_pool(chat, anna, "willpower", 0)
    refused = await chat.one("st rollstat Anna social wp", **ST)
    assert refused.error == "invalid" and refused.text == "Anna has no Willpower left to spend."
    assert chat.dice.remaining == 0


# -- plural counts -----------------------------------------------------------------------------


async def test_extended_counts_agree_with_their_nouns(chat: Chat) -> None:
    """ "The Storyteller names a success target and how many rolls you get to reach it"; the line
    read "1 rolls left" (and "1 successes in 1 rolls")."""
    await make_character(chat, "mira", "Mira", physical=3)
    reply = await chat.one("extended start 5 2 physical", as_="mira")
    assert reply.text == "Mira starts an extended action rolling Physical: 5 successes in 2 rolls."
    chat.dice.extend([7, 2, 3])
    reply = await chat.one("extended roll", as_="mira")
    assert reply.text.endswith("— 1/5, 1 roll left."), reply.text
    assert (await chat.one("extended status", as_="mira")).text == (
        "Mira's extended action: 1/5 successes after 1 of 2 rolls (1 left)."
    )
    assert (await chat.one("extended abandon", as_="mira")).error is None
    reply = await chat.one("extended start 1 1", as_="mira")
    assert reply.text == "Mira starts an extended action: 1 success in 1 roll."
    chat.dice.extend([8, 2, 3])
    reply = await chat.one("extended roll physical", as_="mira")
    assert reply.text.endswith("— Done: 1/1 after 1 roll."), reply.text


# -- the Storyteller's last word on modifiers --------------------------------------------------


async def test_the_storyteller_overrules_a_proposed_modifier(any_chat: Chat) -> None:
    """ "Players may propose their own modifiers on the HUD, and the Storyteller has the last word";
    "You own the modifiers. Players can set their own on the HUD, and you can overrule any of them."
    ``st mod NAME N [REASON]`` rules the next roll's modifier, over whatever the player proposes."""
    chat = any_chat
    mira = await make_character(chat, "mira", "Mira", physical=3, powers=[SHADOW_STEP])
    reply = await chat.one("st mod Mira -1 rushed", **ST)
    assert reply.error is None, reply.text
    assert reply.text == (
        "Mira's next roll is at -1 (rushed), whatever modifier the player proposes (st mod NAME clear"
        " withdraws it)."
    )
    assert (await chat.one("st mod Mira", **ST)).text == (
        "Mira's next roll is at the Storyteller's ruling -1 (rushed)."
    )
    chat.dice.extend([9, 5])
    reply = await chat.one("roll physical +2", as_="mira")
    r = reply.result
    assert r is not None and (r["pool"], r["modifiers"]) == (2, [-1]), reply.text
    assert r["ruling"]["value"] == -1 and r["ruling"]["proposed"] == [2]
    assert reply.text == (
        f"Mira rolls Physical 3-1 = 2 dice: 9 5 → 1 (Marginal) (Storyteller's ruling -1 (rushed);"
        f" proposed +2) #{r['id']}"
    )
    # Spent: the next roll is the player's own again.
    chat.dice.extend([9, 5, 5, 5, 5])
    r = (await chat.one("roll physical +2", as_="mira")).result
    assert r is not None and r["pool"] == 5 and "ruling" not in r
    async with chat.services.vault.transaction() as session:
        rows = (await session.exec(select(Audit).where(col(Audit.action) == "st.mod"))).all()
        sheet = (await session.get(Character, mira)).sheet  # type: ignore[union-attr]
    assert [(a.field_name, a.old_value) for a in rows] == [("st_modifier", None)]
    assert "st_modifier" not in sheet


async def test_a_ruling_on_a_power_and_no_modifier_and_clear(any_chat: Chat) -> None:
    """The ruling holds for the Use Power roll too ("pick the power and the tier, pay the Essence,
    roll the trait"); ``0`` rules no modifier at all; ``clear`` withdraws an unused ruling, audited;
    a refused roll spends no ruling; players cannot rule."""
    chat = any_chat
    mira = await make_character(chat, "mira", "Mira", physical=3, willpower=0, powers=[SHADOW_STEP])
    assert (await chat.one("st mod Mira +0", **ST)).error is None
    refused = await chat.one("roll physical -2 wp", as_="mira")
    assert refused.error == "invalid" and "no Willpower" in refused.text
    chat.dice.extend([7, 7, 7])
    reply = await chat.one("power use Shadow Step -2", as_="mira")
    r = reply.result
    assert r is not None and (r["pool"], r["modifiers"], r["ruling"]["proposed"]) == (3, [], [-2])
    assert "(Storyteller's ruling +0; proposed -2)" in reply.text
    assert (await chat.one("st mod Mira +1 the right tool", **ST)).error is None
    reply = await chat.one("st mod Mira clear", **ST)
    assert reply.text == "The ruling +1 (the right tool) on Mira's next roll is withdrawn."
    assert (await chat.one("st mod Mira clear", **ST)).error == "invalid"
    assert (await chat.one("st mod Mira +99", **ST)).error == "invalid"
    assert (await chat.one("st mod Mira -1", as_="mira")).error == "forbidden"
    async with chat.services.vault.transaction() as session:
        actions = (await session.exec(select(Audit.action).where(col(Audit.character_id) == mira))).all()
    assert list(actions).count("st.mod") == 3


async def test_a_ruling_holds_for_each_side_of_a_contest(chat: Chat) -> None:
    """ "The Storyteller sets modifiers for each side separately": a ruling on the challenger and
    one on the defender each replace what that player wrote."""
    await mira_bob_and_a_rat(chat)
    assert (await chat.one("st mod Mira +1", **ST)).error is None
    assert (await chat.one("st mod Bob -1 distracted", **ST)).error is None
    pending = await chat.one("challenge Bob social +3", as_="mira")
    assert pending.result is not None, pending.text
    assert pending.result["challenger"]["label"] == "Social 2+1 (Storyteller's ruling +1; proposed +3)"
    chat.dice.extend([5] * 10)
    reply = await chat.one("defend mental +2", as_="bob")
    assert reply.result is not None and sides(reply.result) == [3, 1], reply.text
    assert "(Storyteller's ruling -1 (distracted); proposed +2)" in reply.text


# -- another player's character as the opposition ---------------------------------------------


async def test_rolling_against_another_players_character_is_their_answer(chat: Chat) -> None:
    """ "When two characters want incompatible things ... both roll. ... Both sides state what they
    are attempting and which trait carries it. ... Willpower may be spent by either, and is declared
    before the dice." ``roll social vs Bob mental`` rolled Bob's dice without Bob: now Bob answers."""
    await mira_bob_and_a_rat(chat)
    reply = await chat.one("roll social vs Bob mental", as_="mira")
    r = reply.result
    assert reply.error is None and r is not None, reply.text
    assert (r["kind"], r["status"], r["redirected"]) == ("challenge", "pending", "roll")
    assert reply.text == (
        "Bob is another player's character and rolls for themselves: Mira challenges Bob (Social 2)."
        " Bob answers with defend TRAIT [+N|-N] [wp], or concede, within 5 minutes."
    )
    assert chat.dice.remaining == 0
    chat.dice.extend([7, 7, 2, 2])
    answer = await chat.one("defend mental wp", as_="bob")
    assert answer.result is not None and answer.result["context"] == "challenge", answer.text
    assert [s["willpower"] for s in answer.result["sides"]] == [False, True]
    refused = await chat.one("roll social vs Bob mental secret", as_="mira")
    assert refused.error == "invalid" and "cannot be secret" in refused.text


async def test_own_characters_npcs_and_storytellers_still_roll_straight(chat: Chat) -> None:
    """The roller's own other character and an NPC's pool are no other player's to answer for; a
    Storyteller ("You have the final say on every rule in this book") rolls any side."""
    await make_character(chat, "mira", "Dorian", mental=4)
    await make_character(chat, "mira", "Mira", social=3)
    await make_character(chat, "bob", "Bob", mental=2)
    chat.dice.extend([7, 7, 7, 2, 2, 2, 2])
    r = (await chat.one("roll social vs Dorian mental", as_="mira")).result
    assert r is not None and r["kind"] == "contest" and r["opponent"] == "Dorian"
    chat.dice.extend([7, 7, 7, 2, 2, 2])
    r = (await chat.one("roll social vs 3", as_="mira")).result
    assert r is not None and r["kind"] == "contest" and r["against"] == "NPC"
    await make_character(chat, "ana", "Vex", social=2)
    chat.dice.extend([7, 7, 2, 2])
    r = (await chat.one("roll social vs Bob mental", **ST)).result
    assert r is not None and r["kind"] == "contest" and r["opponent"] == "Bob"


async def test_attacks_on_another_players_character_happen_in_a_fight(chat: Chat) -> None:
    """ "Combat is a contest run in turns. When it starts, everyone involved rolls once for order";
    "Defence. ... You roll against every attack that comes at you, on other people's turns."
    ``attack Eve`` worked outside any fight and wrote damage to her sheet."""
    await make_character(chat, "mira", "Mira", physical=4)
    eve = await make_character(chat, "eve", "Eve", physical=1)
    chat.dice.extend([10, 10, 10, 10, 2, 10, 10, 10, 10, 2])
    refused = await chat.one("attack Eve", as_="mira")
    assert refused.error == "invalid" and refused.text == (
        "Eve is not in a fight here: an attack is a turn in a fight (init start, then Mira and Eve init"
        " join), or contest it outside one with challenge Eve TRAIT."
    )
    assert (await chat.one("init start", as_="mira")).error is None
    assert (await chat.one("init join", as_="mira")).error is None
    refused = await chat.one("attack Eve", as_="mira")
    assert refused.error == "invalid" and refused.text.startswith("Eve is not in this fight")
    assert chat.dice.remaining == 10 and await pool(chat, eve, "damage") == 0
    assert (await chat.one("init join", as_="eve")).error is None
    assert (await chat.one("init roll", as_="mira")).error is None  # Mira 4, Eve 0: Mira's turn
    reply = await chat.one("attack Eve", as_="mira")
    assert reply.result is not None and reply.result["damage"] == 8, reply.text
    assert await pool(chat, eve, "damage") == 8
    # The Storyteller's NPC strikes wherever the Storyteller says.
    assert (await chat.one("init end", as_="mira")).error is None
    chat.dice.extend([10, 2])
    reply = await chat.one("attack Eve 1 as Ghoul", **ST)
    assert reply.error is None and reply.result is not None and reply.result["damage"] == 2, reply.text


async def test_resisting_a_power_is_the_other_players_answer_too(chat: Chat) -> None:
    """ "A mundane character can resist a power with a plain trait roll" — and "Willpower may be
    spent by either": ``power use POWER vs Bob mental`` rolled Bob's Mental for him. Now Bob answers
    (defend TRAIT, or defend power), and Mira's Essence is paid now, as with ``vs Bob``."""
    mira, bob = await mira_bob_and_a_rat(chat)
    reply = await chat.one("power use Shadow Step vs Bob mental", as_="mira")
    r = reply.result
    assert reply.error is None and r is not None, reply.text
    assert (r["status"], r["redirected"], r["challenger"]["power"]["name"]) == (
        "pending",
        "power",
        "Shadow Step",
    )
    assert reply.text.startswith("Bob is another player's character and rolls for themselves: Mira")
    assert chat.dice.remaining == 0 and await pool(chat, mira, "essence") == 9
    chat.dice.extend([5] * 6)
    answer = await chat.one("defend mental", as_="bob")
    assert answer.result is not None and sides(answer.result) == [4, 2], answer.text
    assert await pool(chat, bob, "essence") == 10


async def test_a_ruling_follows_a_roll_that_becomes_a_challenge(chat: Chat) -> None:
    """The Storyteller's ruling on Mira holds when her roll against Bob becomes his to answer."""
    await mira_bob_and_a_rat(chat)
    assert (await chat.one("st mod Mira -1 rushed", **ST)).error is None
    reply = await chat.one("roll social +2 vs Bob mental", as_="mira")
    assert reply.result is not None, reply.text
    assert reply.result["challenger"]["label"] == (
        "Social 2-1 (Storyteller's ruling -1 (rushed); proposed +2)"
    )


async def test_vs_another_players_character_alone_lets_them_choose(chat: Chat) -> None:
    """ "Build each pool from the trait that fits what that character is doing": ``roll social vs
    Bob`` leaves Bob's trait to Bob's player; for a character the roller may roll, the trait is
    asked for."""
    await make_character(chat, "mira", "Dorian", mental=4)
    await mira_bob_and_a_rat(chat)
    reply = await chat.one("roll social -1 vs Bob", as_="mira")
    assert reply.result is not None and reply.result["status"] == "pending", reply.text
    assert reply.result["challenger"]["label"] == "Social 2-1"
    refused = await chat.one("roll social vs Dorian", as_="mira")
    assert (
        refused.error == "invalid"
        and refused.text == "Which of Dorian's traits resists? Write vs Dorian TRAIT."
    )
    assert chat.dice.remaining == 0
