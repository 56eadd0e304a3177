"""Extended actions and teamwork through the chat: the state machine in the vault, one action per
character, Willpower paid by the right person, the helper cap, and state across a restart."""

from __future__ import annotations

from gateway.testing import Chat, start_chat
from tests.conflict.helpers import make_character, pool, set_pool


async def test_extended_defaults_offered(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", mental=3)
    reply = await chat.one("extended", as_="mira")
    assert reply.text == (
        "No extended action under way for Mira. Start one with extended start 5 3 (difficult) or"
        " extended start 10 5 (real effort), adding a trait to roll."
    )
    assert reply.result is not None and reply.result["offers"] == [
        {"target": 5, "rolls": 3, "for": "difficult"},
        {"target": 10, "rolls": 5, "for": "real effort"},
    ]


async def test_extended_success(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", mental=3)
    started = await chat.one("extended start 5 3 mental", as_="mira")
    assert started.text == "Mira starts an extended action rolling Mental: 5 successes in 3 rolls."
    chat.dice.extend([9, 10, 2])
    first = await chat.one("extended roll", as_="mira")
    assert first.result is not None
    assert first.text == f"Mira rolls Mental 3: 9 10 2 → 3 (Solid) #{first.result['id']} — 3/5, 2 rolls left."
    chat.dice.extend([7, 8, 1, 3])  # +1 die: 7 8 1 3 -> 1
    second = await chat.one("extended roll +1", as_="mira")
    assert second.result is not None and second.result["extended"]["accumulated"] == 4
    chat.dice.extend([7, 2, 2])
    done = await chat.one("extended roll", as_="mira")
    assert done.result is not None
    assert (done.result["status"], done.result["reason"]) == ("success", "target_reached")
    assert done.text.endswith("— Done: 5/5 after 3 rolls.")
    assert (await chat.one("extended status", as_="mira")).error == "invalid"  # over, removed


async def test_extended_botch_reset_then_second_botch_ends(chat: Chat) -> None:
    cid = await make_character(chat, "mira", "Mira", mental=2, spirit=1)
    await chat.one("extended start 10 5 mental", as_="mira")
    chat.dice.extend([10, 10])
    await chat.one("extended roll", as_="mira")
    chat.dice.extend([1, 2])
    botch = await chat.one("extended roll wp", as_="mira")  # Willpower cannot save a botch
    assert botch.result is not None
    assert botch.result["extended"]["accumulated"] == 0
    assert botch.result["extended"]["complication"] is True
    assert "Botch: progress lost, a complication for the Storyteller. 0/10, 3 rolls left." in botch.text
    assert await pool(chat, cid, "willpower") == 2
    status = await chat.one("extended status", as_="mira")
    assert status.text == (
        "Mira's extended action: 0/10 successes after 2 of 5 rolls (3 left). Complication pending."
    )
    chat.dice.extend([1, 1])
    ended = await chat.one("extended roll", as_="mira")
    assert ended.result is not None and ended.result["reason"] == "second_botch"
    assert ended.text.endswith("— A second botch: the attempt fails.")


async def test_extended_runs_out_of_rolls_and_survives_a_restart(vault_file: str) -> None:
    chat = await start_chat(vault_file)
    await make_character(chat, "mira", "Mira", physical=2)
    await chat.one("extended start 5 2 physical", as_="mira")
    chat.dice.extend([7, 2])
    await chat.one("extended roll", as_="mira")
    await chat.gateway.stop()
    chat = await start_chat(vault_file)
    try:
        chat.dice.extend([8, 3])
        last = await chat.one("extended roll", as_="mira")
        assert last.result is not None
        assert (last.result["status"], last.result["reason"]) == ("failed", "out_of_rolls")
        assert last.text.endswith("— Out of rolls at 2/5: the attempt fails.")
    finally:
        await chat.gateway.stop()


async def test_extended_one_per_character_and_refusals(chat: Chat) -> None:
    await make_character(chat, "mira", "Mira", mental=2)
    assert (await chat.one("extended start 0 3", as_="mira")).error == "invalid"
    assert (await chat.one("extended start five 3", as_="mira")).error == "invalid"
    assert (await chat.one("extended start 5 3 mental +1", as_="mira")).error == "invalid"
    assert (await chat.one("extended roll", as_="mira")).error == "invalid"
    await chat.one("extended start 5 3", as_="mira")
    again = await chat.one("extended start 10 5", as_="mira")
    assert again.text == "Mira already has an extended action under way: extended abandon ends it first."
    assert (await chat.one("extended roll", as_="mira")).error == "invalid"  # no pool fixed: name one
    chat.dice.extend([9, 9])
    assert (await chat.one("extended roll mental", as_="mira")).error is None
    abandoned = await chat.one("extended abandon", as_="mira")
    assert abandoned.text == "Mira abandons the extended action at 2/5."
    # Without a character, bare numbers work too, one per person.
    await chat.one("extended start 5 3 4", as_="npcrunner")
    chat.dice.extend([10, 10, 10, 2])
    r = (await chat.one("extended roll", as_="npcrunner")).result
    assert r is not None and r["status"] == "success"


async def test_team_with_helpers_and_willpower(chat: Chat) -> None:
    lead = await make_character(chat, "lead", "Lena", physical=2)
    h1 = await make_character(chat, "h1", "Hal", mental=1, spirit=1)
    await make_character(chat, "h2", "Ivy")
    await make_character(chat, "h3", "Jo")
    h4 = await make_character(chat, "h4", "Kit")
    opened = await chat.one("team start physical +1", as_="lead")
    assert opened.error is None
    assert (await chat.one("assist wp", as_="h1")).text == (
        "Hal helps Lena: a sure success (1 Willpower spent). Team: Hal (a sure success)."
    )
    assert await pool(chat, h1, "willpower") == 1
    await chat.one("assist", as_="h2")
    await chat.one("assist Lena", as_="h3")
    full = await chat.one("assist wp", as_="h4")
    assert full.text == "Lena already has 3 helpers (Hal, Ivy, Jo), the most that count."
    assert await pool(chat, h4, "willpower") == 2  # nothing spent on a refusal
    assert (await chat.one("assist", as_="h2")).text == "Ivy is already helping Lena."
    assert (await chat.one("assist", as_="lead")).text == "Lena leads this action and cannot also help it."
    # Physical 2 +1, +2 helper dice = 5 dice; +1 sure success from Hal, +1 Willpower from Lena.
    chat.dice.extend([9, 1, 2, 3, 10])
    reply = await chat.one("team roll wp", as_="lead")
    r = reply.result
    assert r is not None, reply.text
    assert (r["pool"], r["dice_total"], r["total"], r["degree"]) == (5, 2, 4, "strong")
    assert (r["helper_dice"], r["helper_successes"]) == (2, 1)
    assert reply.text == (
        f"Lena rolls Physical 2+1 team +2 dice +1 sure = 5 dice: 9 1 2 3 10 +1 WP → 4 (Strong) #{r['id']}"
        " — with Hal (a sure success), Ivy (+1 die), Jo (+1 die)"
    )
    assert await pool(chat, lead, "willpower") == 1
    assert (await chat.one("team status", as_="lead")).text == "No team actions are open here."


async def test_team_helpers_cannot_save_a_botch_and_cancel_refunds(chat: Chat) -> None:
    await make_character(chat, "lead", "Lena", physical=1)
    h1 = await make_character(chat, "h1", "Hal")
    await chat.one("team start physical", as_="lead")
    await chat.one("assist wp", as_="h1")
    cancelled = await chat.one("team cancel", as_="lead")
    assert cancelled.text == "Lena's team action is called off. Willpower returned to 1 helper."
    assert await pool(chat, h1, "willpower") == 2
    await chat.one("team start physical", as_="lead")
    await chat.one("assist wp", as_="h1")
    chat.dice.extend([1])
    r = (await chat.one("team roll", as_="lead")).result
    assert r is not None and (r["dice_total"], r["total"], r["degree"]) == (-1, 0, "botch")


async def test_team_refusals(chat: Chat) -> None:
    await make_character(chat, "lead", "Lena", physical=1)
    h1 = await make_character(chat, "h1", "Hal")
    assert (await chat.one("assist", as_="h1")).error == "invalid"  # nobody leads
    assert (await chat.one("team roll", as_="lead")).error == "invalid"
    assert (await chat.one("team start physical wp", as_="lead")).error == "invalid"
    await chat.one("team start physical", as_="lead")
    assert (await chat.one("team start physical", as_="lead")).error == "invalid"
    await set_pool(chat, h1, "willpower", 0)
    assert "no Willpower left" in (await chat.one("assist wp", as_="h1")).text
    assert (await chat.one("team cancel Lena", as_="h1")).error == "forbidden"
    assert (await chat.one("assist wp", as_="nochar")).error == "invalid"  # Willpower needs a character
    assert (await chat.one("team cancel Lena", as_="st", st=True)).error is None
