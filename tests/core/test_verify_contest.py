"""``verify`` of a contest shows each side (issue 15: "`verify` of a contest is wrong: `#pjkh3: ...
2 7 3 8 6 5 1 → None (clear)` merges both sides' dice; show both sides as the original line did").

Every system with contests keeps them in ``RollLog.result["sides"]``; verify renders each side's
dice, total and degree, and the winner, unless the system answers ``RuleSystem.roll_text`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from gateway import Command, CommandContext, Invocation, Reply, RuleSystem
from gateway.rules.roll_text import roll_text
from gateway.testing import Chat, start_chat
from tests.conflict.helpers import make_character
from tests.helpers.chat import play
from tests.nightcap.helpers import ok

WHEN = "2026-11-30 20:00:00 UTC"


async def detail(chat: Chat, roll_id: str, as_: str = "someone", **kw: Any) -> str:
    """The part of verify's line after the time: the dice."""
    shown = await ok(chat, f"verify {roll_id}", as_, **kw)
    assert shown.result is not None and shown.result["roll"]["id"] == roll_id
    return shown.text.split(f"{WHEN}: ", 1)[1]


async def test_nightcap_roll_against_a_pool(chat: Chat) -> None:
    chat.dice.extend([7, 3, 8, 6, 5])
    reply = await ok(chat, "roll 3 vs 2", "alice")
    assert reply.text.startswith("Alice rolls 3 dice: 7 3 8 → 2 (Solid) vs NPC 2 dice: 6 5 → 0 (Failure)")
    shown = await ok(chat, f"verify {reply.result['id']}", "someone")
    assert shown.text == (
        f"#{reply.result['id']}: Alice (console:alice) rolled Nightcap in console:main at {WHEN}:"
        " Alice 7 3 8 → 2 (solid) vs NPC 6 5 → 0 (failure): Alice wins by 2 (clear)"
    )


async def test_nightcap_challenge_names_both_characters(chat: Chat) -> None:
    sl = {"platform": "secondlife", "channel": "region-a"}
    dc = {"platform": "discord", "channel": "4242"}
    await make_character(chat, "dorian", "Dorian", social=4, mental=2, spirit=1, **sl)
    await make_character(chat, "det", "Detective", mental=3, spirit=1, **dc)
    await ok(chat, "challenge Detective social", "dorian", **sl)
    chat.dice.extend([7, 8, 3, 1, 8, 6, 4, 2])
    reply = await ok(chat, "defend mental +1", "det", **dc)
    assert await detail(chat, reply.result["id"]) == (
        "Dorian 7 8 3 1 → 1 (marginal) vs Detective 8 6 4 2 → 1 (marginal): no winner (deadlock)"
    )


async def test_decanter_contest(chat: Chat) -> None:
    await play(chat, "decanter", as_="st")
    chat.dice.extend([6, 3, 5, 2, 1])
    reply = await ok(chat, "roll 3 vs 2", "alice")
    assert await detail(chat, reply.result["id"]) == "Alice 6 3 5 → 1 vs Opponent 2 1 → -1: Alice wins"


async def test_dramatic_resisted_roll(chat: Chat) -> None:
    await play(chat, "dramatic", as_="st")
    chat.dice.extend([7, 3, 8, 6, 5])
    reply = await ok(chat, "roll 3 diff 7 vs 2", "alice")
    assert await detail(chat, reply.result["id"]) == (
        "Alice 7 3 8 → 2 (success) vs Defender 6 5 → 1 (success): Alice wins by 1"
    )


async def test_pravidla_contest_with_a_rerolled_tie_read_in_czech(chat: Chat) -> None:
    await play(chat, "pravidla", as_="st")
    chat.dice.extend([4, 1, 5, 2, 6, 6, 1, 1])
    reply = await ok(chat, "roll 2 vs 2", "alice")
    roll_id = reply.result["id"]
    # Read in Czech, the channel's language: each side keeps its dice from every round, and the
    # degree is Pravidla's own word (its RuleSystem.roll_text), not the stored "success".
    shown = await ok(chat, f"verify {roll_id}", "klara")
    assert shown.text == (
        f"#{roll_id}: Alice (console:alice) – hod v systému Pravidla, kanál console:main, {WHEN}:"
        " Alice 4 1 6 6 → 2 (podařilo se) vs. protivník 5 2 1 1 → 0 (nepodařilo se): vítězí Alice;"
        " předtím 1× shoda, házelo se znovu"
    )


async def test_night_wanderers_contest_read_in_russian(chat: Chat) -> None:
    await play(chat, "nightwanderers", as_="st")
    chat.dice.extend([4, 1, 5, 2, 6])
    reply = await ok(chat, "roll 3 vs 2", "olga")
    assert await detail(chat, reply.result["id"], "ivan") == (
        "Olga 4 1 5 → 2 (Хорошо) — НПС 2 6 → 1 (Провал): побеждает Olga"
    )


async def test_a_single_roll_reads_as_before(chat: Chat) -> None:
    chat.dice.extend([9, 5, 10])
    reply = await ok(chat, "roll 3", "mira")
    assert await detail(chat, reply.result["id"]) == "9 5 10 → 3 (solid)"


def test_rerolled_ties_are_counted_in_each_language() -> None:
    """Pravidla and Night Wanderers roll a tied contest again ("předtím 3× shoda, házelo se znovu",
    "до этого была 1 ничья, её перекинули", issue 19); the sides keep every round's dice."""
    tied = {"sides": [{"who": "A", "dice": [6]}, {"who": "B", "dice": [1]}], "winner": 0}
    assert roll_text("en", {**tied, "rerolls": 1}, [], None, None) == (
        "A 6 vs B 1: A wins; 1 tie was rolled again first"
    )
    assert roll_text("en", {**tied, "rerolls": 2}, [], None, None).endswith(
        "; 2 ties were rolled again first"
    )
    assert roll_text("cs", {**tied, "rerolls": 3}, [], None, None).endswith(
        "; předtím 3× shoda, házelo se znovu"
    )
    assert roll_text("ru", {**tied, "rerolls": 1}, [], None, None).endswith(
        "; до этого была 1 ничья, её перебросили"
    )
    assert roll_text("ru", {**tied, "rerolls": 2}, [], None, None).endswith(
        "; до этого были 2 ничьи, их перебросили"
    )
    assert roll_text("ru", {**tied, "rerolls": 5}, [], None, None).endswith(
        "; до этого было 5 ничьих, их перебросили"
    )
    assert roll_text("en", {**tied, "rerolls": 0}, [], None, None) == "A 6 vs B 1: A wins"


def test_rows_without_sides_or_numbers() -> None:
    assert roll_text("en", {}, [], None, None) == "no dice"
    assert roll_text("cs", {}, [2, 4], None, "ok") == "2 4 (ok)"
    two = {"sides": [{"dice": [1]}, {"dice": [2], "total": 0}], "winner": 1}
    assert roll_text("ru", two, [1, 2], None, None) == "сторона 1 1 — сторона 2 2 → 0: побеждает сторона 2"


async def duel(ctx: CommandContext, inv: Invocation) -> Reply:
    """A contest logged with two sides, as every system with contests logs one."""
    sides = [{"dice": [7, 3, 8], "total": 2}, {"dice": [6, 5], "total": 0}]
    result = {"kind": "contest", "system": "own", "sides": sides, "winner": 0}
    roll_id = await ctx.log_roll(result)
    return Reply(text=f"duel #{roll_id}", result={**result, "id": roll_id})


class Own(RuleSystem):
    """A system telling its own rolls in its own words."""

    def roll_text(self, roll: Mapping[str, Any], locale: str) -> str | None:
        sides = roll.get("sides") or []
        return f"[{locale}] " + " | ".join(str(s.get("total")) for s in sides)


async def test_a_system_renders_its_own_rolls(tmp_path: Path) -> None:
    own = Own("own", "Own", "none", commands=[Command("duel", duel, "a contest", role="anyone")])
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'own.db'}", systems=[own])
    try:
        await play(chat, "own", as_="st")
        contest = await ok(chat, "duel", "alice")
        assert await detail(chat, contest.result["id"]) == "[en] 2 | 0"
        await ok(chat, "lang cs", "eva")
        assert await detail(chat, contest.result["id"], "eva") == "[cs] 2 | 0"
        # Another system's roll keeps the core's line: the dispatch is by the roll's system.
        await play(chat, "nightcap", as_="st")
        chat.dice.extend([7, 3])
        single = await ok(chat, "roll 2", "alice")
        assert await detail(chat, single.result["id"]) == "7 3 → 1 (marginal)"
    finally:
        await chat.stop()
