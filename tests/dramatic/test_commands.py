"""Dramatic Systems end to end through the router, with scripted dice: every rule in the issue's bullet."""

from __future__ import annotations

from typing import Any

from gateway.testing import Chat, start_chat
from gateway.vault.models import Audit, Pool, RollLog, SceneState
from tests.helpers.chat import count, room, rows


async def roll(chat: Chat, text: str, faces: list[int], as_: str = "alice", **kw: Any) -> dict[str, Any]:
    chat.dice.extend(faces)
    reply = await chat.one(text, as_=as_, **kw)
    assert reply.error is None, reply.text
    assert chat.dice.remaining == 0, "every scripted face was used"
    assert reply.result is not None
    return {**reply.result, "_text": reply.text}


async def refused(chat: Chat, text: str, as_: str = "alice", **kw: Any) -> str:
    before = await count(chat, RollLog)
    reply = await chat.one(text, as_=as_, **kw)
    assert reply.error is not None, reply.text
    assert await count(chat, RollLog) == before
    return reply.text


async def mira(chat: Chat, as_: str = "alice", name: str = "Mira", **traits: int) -> None:
    assert (await chat.one(f"char new {name}", as_=as_)).error is None
    for trait, value in traits.items():
        reply = await chat.one(f"st set {name} {trait} {value}", as_="gm", st=True)
        assert reply.error is None, reply.text


async def test_pool_against_a_difficulty(dra: Chat) -> None:
    result = await roll(dra, "roll 6 diff 7", [9, 5, 10, 1, 7, 3])
    assert {
        k: result[k] for k in ("kind", "system", "pool", "dice", "successes", "degree", "difficulty")
    } == {
        "kind": "roll",
        "system": "dramatic",
        "pool": 6,
        "dice": [9, 5, 10, 1, 7, 3],
        "successes": 2,
        "degree": "success",
        "difficulty": 7,
    }
    assert result["_text"] == (
        f"Alice rolls 6 dice at difficulty 7: 9 5 10 1 7 3 → 2 successes (Success) #{result['id']}"
    )


async def test_book_example_getting_up_from_the_ground(dra: Chat) -> None:
    # "It takes an action slot and you must succeed at Dexterity + Athletics vs 4."
    await mira(dra, dexterity=2, athletics=1)
    result = await roll(dra, "roll dex+athletics diff 4", [4, 3, 1])
    assert (result["pool"], result["difficulty"], result["successes"], result["degree"]) == (
        3,
        4,
        0,
        "failure",
    )
    assert result["_text"].startswith("Mira rolls Dexterity 2 + Athletics 1 = 3 dice at difficulty 4: 4 3 1")


async def test_default_difficulty_is_six(dra: Chat) -> None:
    result = await roll(dra, "roll 3", [6, 5, 2])
    assert (result["difficulty"], result["successes"]) == (6, 1)


async def test_default_difficulty_is_a_setting(tmp_path: Any) -> None:
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", dramatic={"default_difficulty": 8})
    try:
        await chat.one("system dramatic", as_="gm", st=True)
        assert (await roll(chat, "roll 2", [7, 8]))["difficulty"] == 8
    finally:
        await chat.gateway.stop()


async def test_difficulty_is_clamped(dra: Chat) -> None:
    high = await roll(dra, "roll 2 diff 12", [10, 9])
    assert (high["difficulty"], high["requested_difficulty"], high["successes"]) == (10, 12, 1)
    assert "at difficulty 10 (asked 12)" in high["_text"]
    low = await roll(dra, "roll 2 difficulty 1", [1, 2])
    assert (low["difficulty"], low["successes"], low["degree"]) == (2, 0, "failure")


async def test_ones_cancel_and_botch(dra: Chat) -> None:
    cancelled = await roll(dra, "roll 4", [8, 9, 1, 1])
    assert (cancelled["successes"], cancelled["degree"], cancelled["ones"]) == (0, "failure", 2)
    botch = await roll(dra, "roll 3", [1, 5, 2])
    assert (botch["successes"], botch["degree"]) == (0, "botch")
    assert botch["_text"].endswith(f"→ 0 successes (Botch) #{botch['id']}")


async def test_willpower(dra: Chat) -> None:
    assert "Willpower needs a character" in await refused(dra, "roll 3 wp")
    await mira(dra)
    await dra.one("st set Mira willpower 2/6", as_="gm", st=True)
    auto = await roll(dra, "roll 3 wp", [2, 5, 2])
    assert (auto["willpower"], auto["successes"], auto["degree"]) == (True, 1, "success")
    assert auto["_text"].startswith("Mira rolls 3 dice + Willpower at difficulty 6: 2 5 2 → 1 success")
    cancelled = await roll(dra, "roll 3 wp", [7, 1, 1])
    assert (cancelled["successes"], cancelled["degree"]) == (0, "failure")
    assert "no Willpower left" in await refused(dra, "roll 3 wp")
    assert {p.name: p.current for p in await rows(dra, Pool)}["willpower"] == 0


async def test_willpower_does_not_stop_a_botch(dra: Chat) -> None:
    await mira(dra)
    botch = await roll(dra, "roll 3 wp", [1, 2, 3])
    assert (botch["successes"], botch["degree"]) == (0, "botch")


async def test_specialty(dra: Chat) -> None:
    result = await roll(dra, "roll 3 spec", [10, 10, 2, 10, 1, 7])
    assert result["dice"] == [10, 10, 2, 10, 1, 7] and result["extra_dice"] == [10, 1, 7]
    assert result["successes"] == 4  # two 10s, the extra 10 and 7; the extra 1 cancels nothing
    assert "10 10 2, specialty 10s: 10 1 7 → 4 successes" in result["_text"]


async def test_retries_cost_one_difficulty_each(dra: Chat) -> None:
    await mira(dra)
    first = await roll(dra, "roll 3 diff 6", [2, 5, 3])
    assert first["degree"] == "failure" and first["retry"] == 0
    second = await roll(dra, "roll 3 diff 6 retry", [6, 5, 3])
    assert (second["difficulty"], second["retry"], second["degree"]) == (7, 1, "failure")
    assert "at difficulty 7 (6 +1 for a retry)" in second["_text"]
    third = await roll(dra, "roll 3 diff 6 retry", [8, 5, 3])
    assert (third["difficulty"], third["retry"], third["degree"]) == (8, 2, "success")
    assert "Nothing to retry" in await refused(dra, "roll 3 retry")


async def test_retries_are_per_character_and_channel(dra: Chat) -> None:
    await mira(dra)
    await mira(dra, as_="bob", name="Bo")
    await roll(dra, "roll 2", [2, 2])
    assert "Nothing to retry" in await refused(dra, "roll 2 retry", as_="bob")
    await room(dra, "!system dramatic", as_="gm", st=True)
    elsewhere = await room(dra, "!roll 2 retry")
    assert elsewhere[0].error is not None and "Nothing to retry" in elsewhere[0].text
    assert (await roll(dra, "roll 2 retry", [2, 2]))["difficulty"] == 7


async def test_no_retry_after_a_botch(dra: Chat) -> None:
    await roll(dra, "roll 2", [1, 2])
    assert "botched" in await refused(dra, "roll 2 retry")


async def test_scene_end_clears_retries(dra: Chat) -> None:
    await mira(dra)
    await roll(dra, "roll 2", [2, 2])
    ended = await dra.one("* * *")
    assert ended.text == "The scene ends here; retry penalties cleared for Mira."
    assert await count(dra, SceneState) == 0
    assert "Nothing to retry" in await refused(dra, "roll 2 retry")
    assert (await dra.one("scene end")).text == "The scene ends here."


async def test_scene_marker_in_a_chat_room(dra: Chat) -> None:
    await room(dra, "!system dramatic", as_="gm", st=True)
    dra.dice.extend([2, 2])
    assert (await room(dra, "!roll 2"))[0].result["degree"] == "failure"  # type: ignore[index]
    ended = await room(dra, "* * *")
    assert ended[0].text == "The scene ends here; retry penalties cleared for Alice."


async def test_resisted_roll_defender_wins_ties(dra: Chat) -> None:
    result = await roll(dra, "roll 5 vs 4", [6, 7, 1, 2, 2, 8, 2, 2, 2])
    assert result["kind"] == "contest" and result["winner"] == 1 and result["margin"] == 0
    assert [s["successes"] for s in result["sides"]] == [1, 1]
    assert result["_text"].endswith(f"Defender resists (a tie goes to the defender) #{result['id']}")


async def test_resisted_roll_successes_cancel(dra: Chat) -> None:
    result = await roll(dra, "roll 4 diff 5 vs 3 diff 8 spec", [5, 6, 9, 2, 10, 8, 2, 3])
    attacker, defender = result["sides"]
    assert (attacker["difficulty"], attacker["successes"]) == (5, 3)
    assert (defender["difficulty"], defender["successes"], defender["extra_dice"]) == (8, 2, [3])
    assert (result["winner"], result["margin"]) == (0, 1)
    assert "Alice wins by 1" in result["_text"]


async def test_resisted_against_a_named_character(dra: Chat) -> None:
    await mira(dra, dexterity=3, brawl=2)
    await mira(dra, as_="bob", name="Bo", dexterity=2)
    result = await roll(dra, "roll dex+brawl vs Bo dex", [6, 6, 6, 2, 2, 9, 9])
    assert [s["who"] for s in result["sides"]] == ["Mira", "Bo"]
    assert [s["pool"] for s in result["sides"]] == [5, 2]
    assert (result["winner"], result["margin"]) == (0, 1)


async def test_every_roll_is_logged(dra: Chat) -> None:
    result = await roll(dra, "roll 2 diff 6", [6, 6])
    logged = [r for r in await rows(dra, RollLog) if r.public_id == result["id"]]
    assert len(logged) == 1 and logged[0].system == "dramatic" and logged[0].degree == "success"
    assert [s.kind for s in await dra.stlog()][-1] == "roll"


async def test_sheet_and_storyteller_edits(dra: Chat) -> None:
    await mira(dra, dexterity=3, brawl=2)
    assert (await dra.one("set wits 3")).error is None
    assert (await dra.one("set specialties Brawl: Dirty Fighting")).error is None
    sheet = await dra.one("sheet")
    assert sheet.result is not None
    assert sheet.result["sheet"]["abilities"] == {"brawl": 2}
    assert sheet.result["willpower"] == {"current": 5, "maximum": 5}
    assert "Willpower 5 of 5" in sheet.text and "Specialties: Brawl: Dirty Fighting" in sheet.text
    assert (
        await dra.one("st set Mira willpower 3/7", as_="gm", st=True)
    ).text == "Mira: Willpower 5/5 → 3/7."
    assert "Storyteller role" in (await dra.one("st set Mira wits 2")).text
    await dra.one("st approve Mira", as_="gm", st=True)
    assert "approved and locked" in (await dra.one("set wits 1")).text
    edits = [(a.action, a.field_name, a.new_value) for a in await rows(dra, Audit)]
    assert ("dramatic.st_set", "willpower", "3/7") in edits
    assert ("dramatic.st_set", "dexterity", "3") in edits


async def test_bad_input(dra: Chat) -> None:
    assert "Which pool?" in await refused(dra, "roll")
    assert "must be a whole number" in await refused(dra, "roll 3 diff hard")
    assert "Unknown trait" in await refused(dra, "roll foo")
    assert "no active Dramatic Systems character" in await refused(dra, "roll dex")
    assert "above the maximum" in await refused(dra, "roll 60")
    assert "not a retry" in await refused(dra, "roll 3 retry vs 2")
    assert "Only you can spend Willpower" in await refused(dra, "roll 3 vs 2 wp")


async def test_odds_command(dra: Chat) -> None:
    reply = await dra.one("odds 6 diff 7")
    assert reply.text == (
        "Odds for 6 dice at difficulty 7: botch 3.1%, failure 17.0%, success 79.9%; 2+ 58.5%, 3+ 33.5%,"
        " 4+ 13.7%, 5+ 3.5%, 6+ 0.4%, 7+ 0.0%."
    )
    resisted = await dra.one("odds 5 vs 4")
    assert resisted.text.startswith("Odds for 5 dice at difficulty 6 against 4 dice at difficulty 6: you win")
    assert resisted.result is not None
    assert abs(resisted.result["win"] + resisted.result["lose"] - 1) < 1e-12


async def test_odds_carry_the_web_pages_chart(dra: Chat) -> None:
    """Issue 17: the picture Discord and Matrix show is the web page's chart, from the odds the
    command worked out (``web_tools.odds_charts``), with the specialty as on the page."""
    from gateway.rules.charts import chart_from_result
    from plugins.dramatic.web_tools import tool_odds

    reply = await dra.one("odds 6 diff 7 spec")
    chart = chart_from_result(reply.result)
    assert chart is not None and chart.title == "Dramatic Systems odds"
    page = tool_odds({"pool": 6, "difficulty": 7, "specialty": 1}, "en", {})
    assert [p.title for p in chart.panels] == [c.title for c in page]
    assert [[(b.label, b.exact) for b in p.bars] for p in chart.panels] == [
        [(label, f"{v.numerator}/{v.denominator}") for label, v in c.rows] for c in page
    ]


async def test_the_scene_markers_declare_nothing_and_run_as_typed(dra: Chat) -> None:
    """``* * *`` and ``scene end`` declare ``params=()``: the lines typed before run as before."""
    for line in ("* * *", "scene end", "scene end now"):
        assert (await dra.one(line)).text == "The scene ends here.", line
