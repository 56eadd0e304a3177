"""Third pass on Nightcap: who may act and what a mistyped line does (issue 31). Every case quotes the
book (000) and runs scripted dice."""

from __future__ import annotations

from sqlmodel import select

from gateway.testing import Chat
from gateway.vault.models import RollLog
from tests.nightcap.helpers import build, ok, pools, refused, set_pool


async def roll_count(chat: Chat) -> int:
    async with chat.services.vault.transaction() as session:
        return len((await session.exec(select(RollLog))).all())


# -- Incapacitated ---------------------------------------------------------------------------------


async def test_an_incapacitated_character_cannot_heal_themselves(chat: Chat) -> None:
    """ "At 10 you are Incapacitated: no more actions, and your fate is in the scene's hands." Spending
    one's own Essence through the Health menu is an action; the Storyteller's Set Health lifts it."""
    await build(chat)
    await set_pool(chat, "Mira", "damage", 10)
    assert await refused(chat, "heal") == (
        "Mira is Incapacitated (10/10 damage) and can take no actions, healing included: their fate is"
        " in the scene's hands. A Storyteller lifts it with st pool Mira damage N (another's healing,"
        " first aid, the scene's turn)."
    )
    assert await pools(chat, "Mira") == {"willpower": (5, 5), "essence": (10, 10), "damage": (10, 10)}
    assert "Incapacitated" in await refused(chat, "roll physical")
    await ok(chat, "st pool Mira damage 9", "ana", st=True)
    chat.dice.extend([7, 7, 7])
    assert (await ok(chat, "roll physical")).result["total"] == 3  # type: ignore[index]
    healed = await ok(chat, "heal")
    assert healed.text == "Mira spends 1 Essence (9/10 left) and heals 1 level: Health ■■■■■■■■□□ 8/10."


# -- Approval --------------------------------------------------------------------------------------


async def test_a_sheet_waiting_for_approval_does_not_act_in_play(chat: Chat) -> None:
    """ "Gameplay menu · approved: Roll — pick a trait": a sheet still in CharGen (submitted, not yet
    locked) has no Roll. Every action from it is refused with one line and nothing is logged."""
    await build(chat, approve=False)
    await build(chat, "Bo", "bo")
    await ok(chat, "init start", "ana", st=True)
    await ok(chat, "init join", "bo")
    before = await roll_count(chat)
    waiting = (
        "Mira is not approved yet: {} works once a Storyteller approves the sheet (char submit when it"
        " is ready)."
    )
    for line, what in (
        ("roll physical", "roll"),
        ("roll physical vs 3", "roll"),
        ("extended start 5 3 mental", "extended start"),
        ("team start physical", "team start"),
        ("init join", "init join"),
        ("challenge Bo social", "challenge"),
        ("attack Bo", "attack"),
        ("roll social vs Bo mental", "roll"),
    ):
        assert await refused(chat, line) == waiting.format(what), line
    # The other side: Bo cannot fight, challenge or help against a sheet still in creation.
    creation = "Mira is not approved yet: a sheet still in creation takes no part in play."
    assert await refused(chat, "challenge Mira social", "bo") == creation
    assert await refused(chat, "attack Mira as Bo", "ana", st=True) == creation
    assert await refused(chat, "init join Mira", "ana", st=True) == creation
    await ok(chat, "team start physical", "bo")
    assert await refused(chat, "assist Bo") == waiting.format("assist")
    assert await roll_count(chat) == before
    # A bare number is the whole pool, the book's practice table: no character acts.
    chat.dice.extend([7, 2])
    assert (await ok(chat, "roll 2")).result["total"] == 1  # type: ignore[index]


# -- sheet NAME, prove NAME, health NAME -----------------------------------------------------------


async def test_a_name_after_sheet_prove_or_health_is_never_ignored(chat: Chat) -> None:
    await build(chat)
    await build(chat, "Nix")  # Mira's player's second character, now the active one
    await build(chat, "Bo", "bo")
    shown = await ok(chat, "sheet Mira")
    assert shown.private and shown.text.startswith("Mira (Nightcap, approved; player Mira)")
    proved = await ok(chat, "prove Mira")
    assert proved.text.startswith("Mira: Physical 3, Mental 3, Social 2, Spirit 2")
    assert (await ok(chat, "health Mira")).text.startswith("Mira's Health:")
    assert (await ok(chat, "sheet")).text.startswith("Nix (Nightcap")
    for line, instead in (
        ("sheet Bo", "ask their player to prove it, or a Storyteller to read it."),
        ("prove Bo", "only their player proves it (ask them)."),
        ("health Bo", "ask their player, or a Storyteller, how they fare."),
    ):
        reply = await chat.one(line, as_="mira")
        assert reply.error == "forbidden" and reply.text.endswith(
            f"Bo is another player's character: {instead}"
        ), reply.text
    assert await refused(chat, "sheet Nobody") == "No Nightcap character called Nobody. Write sheet [NAME]."
    # A Storyteller would "Ask for +prove"; the tool does it for them.
    assert (await ok(chat, "prove Bo", "ana", st=True)).text.startswith("Bo: Physical 3")
    assert (await ok(chat, "sheet Bo", "ana", st=True)).text.startswith("Bo (Nightcap, approved; player Bo)")


# -- words that slipped through --------------------------------------------------------------------


async def test_extra_words_are_refused_not_dropped(chat: Chat) -> None:
    """ "Order. Each combatant rolls Physical with no modifiers": init roll +2 is no such roll."""
    await build(chat)
    await ok(chat, "init start", "ana", st=True)
    await ok(chat, "init join")
    why = (
        "init roll takes nothing after it: each combatant rolls Physical with no modifiers and no Willpower."
    )
    for line in ("init roll +2", "init roll wp", "init roll +2 banana", "init roll physical"):
        assert await refused(chat, line) == f"{why} Write init roll.", line
    for line in ("init list everyone", "init next please", "init end now", "init start again"):
        assert (await refused(chat, line)).startswith(f"{line.rsplit(' ', 1)[0]} takes nothing after it")
    for line in ("char budget Mira", "char submit now", "char list all"):
        assert (await refused(chat, line)).startswith(f"{line.rsplit(' ', 1)[0]} takes nothing after it")
    chat.dice.extend([7, 7, 7])
    assert (await ok(chat, "init roll")).result["order"][0]["initiative"] == 3  # type: ignore[index]


# -- both sides botch ------------------------------------------------------------------------------


async def test_two_botches_lifted_by_willpower_say_why_there_is_a_winner(chat: Chat) -> None:
    """ "It does not stop a botch from being a botch — it only moves the total by one"; "If both totals
    fall below zero, nobody wins". A 1 with Willpower reads Botch at a total of 0, and 0 beats -1."""
    await build(chat, traits=(("physical", 3), ("mental", 3), ("social", 1), ("spirit", 3)))
    chat.dice.extend([1, 1])  # Mira Social 1 wp: 1 → -1 +1 = 0 (Botch); NPC 1 die: 1 → -1 (Botch)
    reply = await ok(chat, "roll social wp vs 1")
    r = reply.result
    assert r is not None and (r["outcome"], r["winner"], r["margin"]) == ("narrow", 0, 1)
    assert [s["degree"] for s in r["sides"]] == ["botch", "botch"]
    assert reply.text == (
        "Mira rolls Social 1: 1 +1 WP → 0 (Botch) vs NPC 1 die: 1 → -1 (Botch): Narrow: Mira wins by 1"
        " (both sides botch on the dice, a complication each, but Willpower lifts Mira's total to 0;"
        f" only two totals below zero are a both-botch with no winner) #{r['id']}"
    )
    chat.dice.extend([1, 1])  # without Willpower: both totals below zero
    plain = await ok(chat, "roll social vs 1")
    assert plain.result is not None and plain.result["outcome"] == "both_botch"
    assert "(both sides botch on the dice" not in plain.text
