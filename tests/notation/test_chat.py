"""Notation through the real router in every rule system and platform form: the roll line, its id,
the Storyteller log, secret, comments, macros, verify, stats and odds (issue 33)."""

from __future__ import annotations

import pytest

from gateway.testing import Chat
from tests.helpers.chat import play

SYSTEMS = ["nightcap", "decanter", "dramatic", "pravidla", "nightwanderers"]


@pytest.mark.parametrize("system", SYSTEMS)
async def test_notation_rolls_in_every_system_and_the_systems_roll_stays(chat: Chat, system: str) -> None:
    await play(chat, system, as_="st")
    chat.dice.extend([4, 5])
    reply = await chat.one("roll 2d6+3", as_="mira")
    assert reply.error is None, reply.text
    roll = reply.result or {}
    assert (roll["kind"], roll["expression"], roll["total"], roll["system"]) == ("dice", "2d6+3", 12, system)
    assert reply.text.startswith("Mira") and f"2d6+3: [4 5] + 3 → 12 #{roll['id']}" in reply.text
    assert chat.dice.remaining == 0
    # The system's own roll is untouched: a pool or trait is never notation.
    chat.dice.extend([1] * 10)
    own = await chat.one("roll 3", as_="mira")
    assert (own.result or {}).get("kind") != "dice", own.text


async def test_r_is_short_for_notation_only(chat: Chat) -> None:
    chat.dice.extend([17])
    reply = await chat.one("r d20+2", as_="mira")
    assert reply.text.startswith("Mira rolls d20+2: [17] + 2 → 19 #"), reply.text
    unknown = await chat.one("r 3", as_="mira")
    assert unknown.error == "unknown_command", unknown.text
    assert (await chat.one("macro add r = roll {1}", as_="mira")).error is None
    chat.dice.extend([9, 5, 10])
    macro = await chat.one("r 3", as_="mira")  # a macro named r still runs for what is not notation
    assert macro.error is None and (macro.result or {}).get("kind") == "roll", macro.text


async def test_each_platform_gets_a_line_within_its_limit(chat: Chat) -> None:
    for platform, limit in (("irc", 350), ("secondlife", 1024), ("discord", 2000), ("console", 4000)):
        chat.dice.extend([(i % 6) + 1 for i in range(600)])
        reply = await chat.one("roll 600d6", as_="mira", platform=platform)
        assert reply.error is None, reply.text
        assert len(reply.text.encode()) <= limit, (platform, len(reply.text.encode()))
        assert reply.text.endswith(f"→ 2100 #{(reply.result or {})['id']}")
        detailed = "[1 2 3 4 5 6 1" in reply.text
        assert detailed is (platform in ("console", "discord")), (platform, reply.text[:80])
    chat.dice.extend([6, 5, 4, 1] * 6)
    six = await chat.one("roll 6x 4d6kh3", as_="mira", platform="irc")
    assert six.text.startswith("Mira rolls 6x 4d6kh3: 15 [6 5 4 (1)]; 15 [6 5 4 (1)];"), six.text
    assert (six.result or {})["totals"] == [15] * 6


async def test_secret_comment_stlog_and_verify(chat: Chat) -> None:
    chat.dice.extend([7, 1, 1, 2, 8, 9])
    reply = await chat.one("roll 6d10>=7f1 secret # ambush", as_="mira")
    assert reply.private and reply.error is None, reply.text
    roll = reply.result or {}
    assert reply.text == f"Mira rolls 6d10>=7f1: [7 1 1 2 8 9] → 1 success #{roll['id']} — ambush"
    assert (roll["successes"], roll["comment"], roll["secret"]) == (1, "ambush", True)
    lines = [e for e in await chat.stlog() if e.result.get("id") == roll["id"]]
    assert [e.text for e in lines] == [reply.text]
    found = await chat.one(f"verify {roll['id']}", as_="mira")  # a secret roll: its roller sees it
    assert found.error is None, found.text
    assert "6d10>=7f1: [7 1 1 2 8 9] → 1 success — ambush" in found.text, found.text
    hidden = await chat.one(f"verify {roll['id']}", as_="olga")  # others learn only that it is secret
    assert (hidden.result or {}).get("secret") is True and "ambush" not in hidden.text, hidden.text


async def test_a_macro_of_notation(chat: Chat) -> None:
    assert (await chat.one("macro add chargen = roll 6x 4d6kh3", as_="mira")).error is None
    chat.dice.extend([3] * 24)
    reply = await chat.one("chargen", as_="mira")
    assert reply.error is None and (reply.result or {})["totals"] == [9] * 6, reply.text


async def test_a_macro_of_bare_notation_rolls_it(chat: Chat) -> None:
    """The issue's own example: ``macro add stats = 6x 4d6kh3`` (a notation line is saved as its roll;
    ``stats`` is also a command, so the macro runs as ``macro stats``)."""
    added = await chat.one("macro add stats = 6x 4d6kh3; r d20", as_="mira")
    assert added.error is None and (added.result or {})["body"] == "roll 6x 4d6kh3; r d20", added.text
    chat.dice.extend([3] * 24 + [17])
    replies = await chat.say("macro stats", as_="mira")
    assert [(r.result or {}).get("totals") for r in replies][:1] == [[9] * 6], replies
    assert (replies[1].result or {})["total"] == 17, replies


async def test_stats_counts_every_face_drawn(chat: Chat) -> None:
    chat.dice.extend([6, 2, 1, 5])  # 3d6! with one explosion and no other dice
    assert (await chat.one("roll 3d6!", as_="mira")).error is None
    chat.dice.extend([1, 3, 4])  # 2d6r1: one reroll
    assert (await chat.one("roll 2d6r1", as_="mira")).error is None
    reply = await chat.one("stats", as_="mira")
    mine = reply.result or {}
    assert (mine["rolls"], mine["dice"]) == (2, 7), reply.text
    assert mine["faces"]["6"]["counts"] == [2, 1, 1, 1, 1, 1]


async def test_languages_and_refusals(chat: Chat) -> None:
    assert (await chat.one("lang cs", as_="mira")).error is None
    chat.dice.extend([7, 8])
    reply = await chat.one("roll 2d10>=7", as_="mira")
    assert reply.text.startswith("Mira hází 2d10>=7: [7 8] → 2 úspěchy #"), reply.text
    wrong = await chat.one("roll 4d6kh5", as_="mira")
    assert (wrong.error, wrong.text) == ("notation", "4d6kh5 ponechává 5 z 4 kostek: ponechte 1 až 4.")
    assert (await chat.one("lang ru", as_="mira")).error is None
    wrong = await chat.one("roll 1001d6", as_="mira")
    assert wrong.text == "В этом броске больше 1000 кубиков — это предел для одного броска."
    chat.dice.extend([4])
    assert (await chat.one("roll d6/0", as_="mira")).text == "В этом броске деление на ноль."
    assert chat.dice.remaining == 0


async def test_odds_in_chat_with_a_chart(chat: Chat) -> None:
    reply = await chat.one("odds 2d6+3", as_="mira", platform="irc")
    assert reply.error is None, reply.text
    assert reply.text.startswith("Odds of 2d6+3: mean 10; exactly: 5 2.8%, 6 5.6%, 7 8.3%")
    assert len(reply.text.encode()) <= 350
    chart = (reply.result or {})["chart"]
    assert [p["title"] for p in chart["panels"]] == ["Chance of exactly this", "Chance of at least this"]
    assert chart["panels"][0]["bars"][5] == ["10", 1 / 6, "1/6"]
    big = await chat.one("odds 10d10!", as_="mira")
    assert big.error == "notation" and "too large" in big.text, big.text
    odd = await chat.one("odds 4d6kh3!", as_="mira")
    assert odd.error == "notation" and "exploding" in odd.text, odd.text
