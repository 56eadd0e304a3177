"""Decanter end to end through the router, with scripted dice: every rule in the issue's bullet."""

from __future__ import annotations

from typing import Any

from gateway.testing import Chat
from gateway.vault.models import Audit, ChannelRow, Character, Person, Pool, RollLog, SceneState, StlogEntry
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


async def mira(chat: Chat, **traits: int) -> None:
    """Alice's character Mira, with traits set by the Storyteller."""
    assert (await chat.one("char new Mira")).error is None
    for trait, value in traits.items():
        reply = await chat.one(f"st set Mira {trait} {value}", as_="gm", st=True)
        assert reply.error is None, reply.text


# ---------------------------------------------------------------- rolls and degrees


async def test_attribute_plus_skill_against_a_dc(dec: Chat) -> None:
    result = await roll(dec, "roll 3+2 dc 4", [9, 5, 10, 1, 7])
    assert {k: result[k] for k in ("kind", "system", "pool", "dice", "successes", "degree", "dc")} == {
        "kind": "roll",
        "system": "decanter",
        "pool": 5,
        "dice": [9, 5, 10, 1, 7],
        "successes": 3,
        "degree": "setback",
        "dc": 4,
    }
    assert result["_text"] == (
        f"Alice rolls 3+2 = 5 dice vs DC 4 (Formidable): 9 5 10 1 7 → 3 successes (Setback) #{result['id']}"
    )


async def test_trait_names_from_the_sheet(dec: Chat) -> None:
    await mira(dec, dexterity=3, firearms=2)
    result = await roll(dec, "roll dex + firearms dc 3", [6, 6, 2, 2, 1])
    assert result["pool"] == 5 and result["successes"] == 1 and result["degree"] == "setback"
    assert result["_text"].startswith("Mira rolls Dexterity 3 + Firearms 2 = 5 dice vs DC 3 (Challenging): ")


async def test_every_degree(dec: Chat) -> None:
    assert (await roll(dec, "roll 4 dc 3", [1, 2, 2, 6]))["degree"] == "botch"
    assert (await roll(dec, "roll 4 dc 3", [6, 6, 2, 2]))["degree"] == "setback"
    assert (await roll(dec, "roll 4 dc 3", [6, 6, 6, 2]))["degree"] == "success"
    extra = await roll(dec, "roll 4 dc 3", [10, 10, 6, 1])
    assert (extra["successes"], extra["degree"], extra["extra_successes"]) == (4, "extra", 1)
    assert "(Extra successes: 1 extra)" in extra["_text"]


async def test_dc_by_name(dec: Chat) -> None:
    assert (await roll(dec, "roll 4 dc hard", [6, 6, 2, 2]))["dc"] == 5
    assert (await roll(dec, "roll 5 dc very hard", [6, 6, 2, 2, 2]))["dc"] == 6
    assert (await roll(dec, "roll 5 dc Almost-Impossible", [6, 6, 2, 2, 2]))["dc"] == 7
    assert "No DC called 'tricky'" in await refused(dec, "roll 4 dc tricky")


async def test_automatic_success_and_force(dec: Chat) -> None:
    auto = await roll(dec, "roll 9 dc 4", [])
    assert (auto["degree"], auto["automatic"], auto["dice"], auto["successes"]) == ("automatic", True, [], 4)
    assert auto["_text"] == (
        "Alice: 9 dice vs DC 4 (Formidable) is more than double the DC: Automatic success,"
        f" no roll #{auto['id']}"
    )
    exactly_double = await roll(dec, "roll 8 dc 4", [2] * 8)
    assert exactly_double["automatic"] is False and exactly_double["degree"] == "botch"
    forced = await roll(dec, "roll 9 dc 4 force", [1, 2, 2, 2, 2, 2, 2, 2, 2])
    assert (forced["automatic"], forced["forced"], forced["degree"]) == (False, True, "botch")


async def test_npc_opposition(dec: Chat) -> None:
    await mira(dec, dexterity=3, firearms=3)
    # The book: outshooting an NPC with Dexterity 3 and Firearms 3 is DC 4.
    result = await roll(dec, "roll dex+firearms vs npc 3+3", [6, 6, 6, 6, 2, 2])
    assert (result["dc"], result["npc_pool"], result["degree"]) == (4, 6, "success")
    assert "vs an NPC's 6 dice (DC 4)" in result["_text"]
    assert (await roll(dec, "roll 3 vs npc 7", [6, 6, 6]))["dc"] == 4
    assert "NPCs never roll" in await refused(dec, "roll 3 vs npc 4 adv")


async def test_pc_against_pc(dec: Chat) -> None:
    await mira(dec, dexterity=3, firearms=2)
    assert (await dec.one("char new Bob", as_="bob")).error is None
    await dec.one("st set Bob dexterity 2", as_="gm", st=True)
    await dec.one("st set Bob athletics 1", as_="gm", st=True)
    result = await roll(dec, "roll dex+firearms vs Bob dex+athletics", [6, 6, 2, 2, 2, 6, 2, 2])
    assert result["kind"] == "contest" and result["winner"] == 0 and result["decided_by"] == "successes"
    assert [s["who"] for s in result["sides"]] == ["Mira", "Bob"]
    assert [s["pool"] for s in result["sides"]] == [5, 3]
    assert [s["successes"] for s in result["sides"]] == [2, 1]
    assert result["_text"].endswith(f": Mira wins #{result['id']}")


async def test_pc_tie_goes_to_the_larger_pool(dec: Chat) -> None:
    result = await roll(dec, "roll 3 vs 2", [6, 2, 2, 6, 2])
    assert (result["winner"], result["decided_by"]) == (0, "pool")
    assert "(a tie; the larger pool wins)" in result["_text"]


async def test_pc_tie_with_equal_pools_rerolls(dec: Chat) -> None:
    result = await roll(dec, "roll 2 vs 2", [6, 2, 2, 6, 1, 6, 2, 2, 2, 2, 6, 6])
    assert result["winner"] == 1 and result["decided_by"] == "reroll"
    assert result["rounds"] == [[1, 1], [0, 0], [0, 2]]
    assert result["sides"][0]["dice"] == [6, 2, 1, 6, 2, 2]
    assert result["sides"][1]["dice"] == [2, 6, 2, 2, 6, 6]
    assert "after 2 re-rolls of a tie" in result["_text"]


async def test_aid_another(dec: Chat) -> None:
    # Helpers roll first: a PC helper's 3 dice (10, 6, 1 = 2 successes), an NPC helper takes half of 4.
    result = await roll(dec, "roll 2 dc 3 aid 3 aid npc 4", [10, 6, 1, 6, 6, 2, 2, 2, 2])
    assert result["bonus_dice"] == 4 and result["pool"] == 6 and result["base_pool"] == 2
    assert result["aid"] == [
        {"pool": 3, "npc": False, "dice": [10, 6, 1], "successes": 2},
        {"pool": 4, "npc": True, "dice": [], "successes": 2},
    ]
    assert result["dice"] == [6, 6, 2, 2, 2, 2] and result["degree"] == "setback"


async def test_aid_is_capped_at_five(dec: Chat) -> None:
    result = await roll(dec, "roll 1 dc 4 aid 4", [10, 10, 10, 10] + [2] * 6)
    assert result["aid"][0]["successes"] == 8 and result["bonus_dice"] == 5 and result["pool"] == 6


async def test_aid_cap_is_a_setting(tmp_path: Any) -> None:
    from gateway.testing import start_chat

    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", decanter={"aid_max": 2})
    try:
        await chat.one("system decanter", as_="gm", st=True)
        result = await roll(chat, "roll 1 dc 4 aid 2", [10, 10, 2, 2, 2])
        assert result["bonus_dice"] == 2
    finally:
        await chat.gateway.stop()


async def test_dice_qualities(dec: Chat) -> None:
    adv = await roll(dec, "roll 2 dc 2 adv", [1, 2, 6, 6])
    assert (adv["quality"], adv["results"], adv["kept"], adv["successes"]) == ("advantage", [-1, 2], 1, 2)
    assert "with Advantage" in adv["_text"] and "1 2 (-1) | 6 6 (2)" in adv["_text"]
    dis = await roll(dec, "roll 2 dc 2 dis", [1, 2, 6, 6])
    assert (dis["quality"], dis["successes"], dis["degree"]) == ("disadvantage", -1, "botch")
    madv = await roll(dec, "roll 2 dc 2 madv", [1, 7, 10])
    assert (madv["quality"], madv["dice"], madv["rerolled"], madv["successes"]) == (
        "major_advantage",
        [1, 7, 10],
        [10],
        2,
    )
    mdis = await roll(dec, "roll 2 dc 1 mdis", [10, 1, 2])
    assert (mdis["quality"], mdis["rerolled"], mdis["successes"], mdis["degree"]) == (
        "major_disadvantage",
        [2],
        -1,
        "botch",
    )


async def test_qualities_stack(dec: Chat) -> None:
    # Major Advantage and Disadvantage make Advantage: two rolls, the better kept.
    stacked = await roll(dec, "roll 2 dc 2 madv dis", [2, 2, 6, 6])
    assert stacked["quality"] == "advantage" and stacked["qualities"] == ["madv", "dis"]
    assert stacked["successes"] == 2
    cancelled = await roll(dec, "roll 2 dc 2 adv dis", [6, 6])
    assert cancelled["quality"] is None and cancelled["dice"] == [6, 6]


async def test_take_half(dec: Chat) -> None:
    half = await roll(dec, "roll 7 dc 4 half", [])
    assert (half["take_half"], half["dice"], half["successes"], half["degree"]) == (True, [], 3, "setback")
    assert (
        half["_text"]
        == f"Alice takes half on 7 dice vs DC 4 (Formidable) → 3 successes (Setback) #{half['id']}"
    )
    with_adv = await roll(dec, "roll 4 dc 3 half adv", [10, 6, 6, 2])
    assert (with_adv["results"], with_adv["successes"], with_adv["degree"]) == ([4, 2], 4, "extra")
    with_dis = await roll(dec, "roll 4 dc 3 half dis", [10, 6, 6, 2])
    assert with_dis["successes"] == 2
    assert "Take Half works with Advantage or Disadvantage only" in await refused(
        dec, "roll 4 dc 3 half madv"
    )


async def test_extended_contest(dec: Chat) -> None:
    started = await dec.one("ext hard 2")
    assert started.error is None
    assert started.text == "Extended contest for Alice: DC 5 × 2 = 10 successes in 2 rolls. Roll with ext."
    first = await roll(dec, "roll 6 ext", [10, 10, 6, 6, 2, 1])
    assert first["dc"] == 5 and first["extended"]["total"] == 5 and first["extended"]["done"] is False
    assert first["_text"].endswith("Extended: 5 of 10 after 1 of 2 rolls.")
    second = await roll(dec, "roll 6 ext", [10, 6, 6, 6, 2, 2])
    assert second["extended"]["total"] == 10 and second["extended"]["done"] is True
    assert second["extended"]["outcome"] == "success" and second["extended"]["rolls"] == [5, 5]
    assert second["_text"].endswith("Extended contest over: 10 of 10 → Success.")
    assert "no extended contest running" in await refused(dec, "roll 6 ext")
    assert (await dec.one("ext 3 3")).error is None
    assert "between" not in (await dec.one("ext")).text
    assert (await dec.one("ext stop")).error is None
    assert "2 to 5" in (await dec.one("ext 3 6")).text


# ---------------------------------------------------------------- story points


async def test_story_points_give_cap_and_show(dec: Chat) -> None:
    await mira(dec)
    assert (await dec.one("sp")).text == "Mira has 0 of 10 Story Points."
    assert "needs the Storyteller role" in (await dec.one("sp give Mira 2")).text
    given = await dec.one("sp give Mira 12", as_="gm", st=True)
    assert given.text == "Mira gains 12 Story Points: now 10 of 10 (2 over the cap lost)."
    assert given.result is not None and given.result["lost"] == 2
    taken = await dec.one("sp give Mira -3", as_="gm", st=True)
    assert taken.text == "Mira loses 3 Story Points: now 7 of 10."
    audits = [a for a in await rows(dec, Audit) if a.action == "decanter.story_points"]
    assert [a.new_value for a in audits] == ["12", "-3"]


async def test_story_point_bonus_on_the_latest_roll(dec: Chat) -> None:
    await mira(dec)
    await dec.one("sp give Mira 3", as_="gm", st=True)
    first = await roll(dec, "roll 4 dc 3", [6, 6, 2, 2])
    assert first["degree"] == "setback"
    bonus = await dec.one("sp bonus 2 stain")
    assert bonus.error is None and bonus.result is not None
    assert bonus.result["successes"] == 4 and bonus.result["degree"] == "extra"
    assert bonus.result["extra_successes"] == 1 and bonus.result["bonus"] == 2
    assert bonus.result["amends"] == first["id"] and bonus.result["dice"] == [6, 6, 2, 2]
    assert bonus.text == (
        f"Mira adds 2 successes to #{first['id']} for 2 Story Points, +2 Stains (now 2): 2 successes"
        f" (Setback) → 4 successes (Extra successes: 1 extra) (1 Story Point left) #{bonus.result['id']}"
    )
    assert "has 1 Story Points, not 2" in (await dec.one("sp bonus 2 stain")).text
    pools = {p.name: p.current for p in await rows(dec, Pool)}
    assert pools["story_points"] == 1


async def test_story_point_bonus_window(dec: Chat) -> None:
    await mira(dec)
    await dec.one("sp give Mira 3", as_="gm", st=True)
    await roll(dec, "roll 4 dc 3", [6, 6, 2, 2])
    dec.clock.advance(seconds=121)
    late = await dec.one("sp bonus 1 stain")
    assert late.error is not None and "more than 120 seconds old" in late.text
    assert {p.name: p.current for p in await rows(dec, Pool)}["story_points"] == 3


async def test_story_point_bonus_window_is_a_setting(tmp_path: Any) -> None:
    from gateway.testing import start_chat

    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", decanter={"bonus_window": 600})
    try:
        await chat.one("system decanter", as_="gm", st=True)
        await mira(chat)
        await chat.one("sp give Mira 1", as_="gm", st=True)
        await roll(chat, "roll 4 dc 3", [6, 6, 2, 2])
        chat.clock.advance(seconds=500)
        assert (await chat.one("sp bonus 1 virtue")).error is None
    finally:
        await chat.gateway.stop()


async def test_downgrade_gains_story_points(dec: Chat) -> None:
    await mira(dec)
    await dec.one("sp give Mira 9", as_="gm", st=True)
    first = await roll(dec, "roll 4 dc 2", [6, 6, 6, 2])
    down = await dec.one("downgrade 2")
    assert down.error is None and down.result is not None
    assert down.result["degree"] == "setback" and down.result["downgraded"] == 2
    assert "extra_successes" not in down.result
    assert down.text == (
        f"Mira downgrades #{first['id']} by 2 steps: Extra successes → Setback, gaining 2 Story Points"
        f" (10 of 10; 1 over the cap lost) #{down.result['id']}"
    )
    assert "can go down 1 more step at most" in (await dec.one("downgrade 2")).text
    assert (await dec.one("downgrade")).result["degree"] == "botch"  # type: ignore[index]
    assert "can go down 0 more steps" in (await dec.one("downgrade")).text


async def test_story_points_need_a_character(dec: Chat) -> None:
    await roll(dec, "roll 3 dc 2", [6, 6, 6])
    assert "no active character" in (await dec.one("sp bonus 1 stain")).text


# ---------------------------------------------------------------- conditions and scenes


async def test_conditions_and_the_scene_marker(dec: Chat) -> None:
    await mira(dec)
    added = await dec.one('cond add Shaken scene penalty "Disadvantage on Composure" resolution "Calm down"')
    assert added.text == (
        "Mira takes the Condition Shaken (until the scene ends). Effect: Disadvantage on Composure rolls."
    )
    await dec.one("cond add Exhausted night")
    await dec.one("cond add Hunted")
    listing = await dec.one("cond")
    assert listing.text == (
        "Mira's Conditions: Shaken (until the scene ends; penalty: Disadvantage on Composure;"
        " effect: Disadvantage on Composure rolls; resolution: Calm down); Exhausted (until the night"
        " ends); Hunted (until resolved)."
    )
    ended = await dec.one("* * *")
    assert ended.text == "The scene ends here. Expired: Shaken (Mira)."
    assert ended.result is not None and ended.result["kind"] == "scene_end"
    night = await dec.one("night end", as_="gm", st=True)
    assert night.text == "The night ends here. Expired: Exhausted (Mira)."
    assert (await dec.one("cond resolve hunted")).text == "Mira's Condition Hunted is resolved."
    assert (await dec.one("cond")).text == "Mira has no Conditions."


async def test_scene_end_only_touches_its_channel(dec: Chat) -> None:
    await mira(dec)
    await dec.one("cond add Shaken scene")
    other = await room(dec, "!system decanter", as_="gm", st=True)
    assert other[0].error is None
    ended = await room(dec, "* * *")
    assert ended[0].text == "The scene ends here."
    assert "Shaken (until the scene ends)" in (await dec.one("cond")).text


async def test_scene_marker_in_a_chat_room(dec: Chat) -> None:
    await room(dec, "!system decanter", as_="gm", st=True)
    assert await room(dec, "hello there") == []
    assert await room(dec, "* * * and more") == []
    bare = await room(dec, "  * * *  ")
    assert len(bare) == 1 and bare[0].text == "The scene ends here."
    prefixed = await room(dec, "!* * *")
    assert prefixed[0].text == "The scene ends here."


async def test_scene_marker_is_chat_in_other_systems(dec: Chat) -> None:
    tables = (StlogEntry, SceneState, Audit, ChannelRow, Person)
    before = {m: await count(dec, m) for m in tables}
    assert await room(dec, "* * *", channel="#nightcap-room") == []
    assert {m: await count(dec, m) for m in tables} == before


async def test_conditions_of_another_character(dec: Chat) -> None:
    await mira(dec)
    assert "not yours" in (await dec.one("cond add Shaken for Mira", as_="bob")).text
    gm = await dec.one("cond add Marked night for Mira", as_="gm", st=True)
    assert gm.text == "Mira takes the Condition Marked (until the night ends)."
    assert [a.action for a in await rows(dec, Audit)][-1] == "decanter.condition_add"


# ---------------------------------------------------------------- characters, sheets, logs


async def test_sheet_and_storyteller_edits(dec: Chat) -> None:
    await mira(dec, dexterity=3, firearms=2)
    assert (await dec.one("set wits 3")).error is None
    assert "goes from 0 to 5" in (await dec.one("set wits 6")).text
    sheet = await dec.one("sheet")
    assert sheet.result is not None
    assert sheet.result["sheet"]["attributes"]["dexterity"] == 3
    assert sheet.result["sheet"]["skills"] == {"firearms": 2}
    assert "Dexterity 3" in sheet.text and "Skills: Firearms 2" in sheet.text
    assert (await dec.one("st approve Mira", as_="gm", st=True)).error is None
    assert "approved and locked" in (await dec.one("set wits 2")).text
    assert (await dec.one("st set Mira wits 7", as_="gm", st=True)).text == "Mira: Wits 3 → 7."
    assert "Storyteller role" in (await dec.one("st set Mira wits 2")).text
    edits = [(a.action, a.field_name, a.old_value, a.new_value) for a in await rows(dec, Audit)]
    assert ("decanter.st_set", "wits", "3", "7") in edits
    assert ("decanter.approve", "status", "creation", "approved") in edits
    assert "for its player and the Storytellers" in (await dec.one("sheet Mira", as_="bob")).text


async def test_characters_are_per_system(dec: Chat) -> None:
    await mira(dec)
    assert (await dec.one("char new Other")).error is None
    assert (await dec.one("char use Mira")).text == "Mira is your active Decanter character."
    chars = await rows(dec, Character)
    assert {c.system for c in chars} == {"decanter"}
    assert "already a Decanter character called mira" in (await dec.one("char new mira", as_="bob")).text


async def test_every_roll_is_logged_and_sent_to_the_storyteller_log(dec: Chat) -> None:
    result = await roll(dec, "roll 3 dc 2 secret", [6, 6, 1])
    logged = [r for r in await rows(dec, RollLog) if r.public_id == result["id"]]
    assert len(logged) == 1 and logged[0].system == "decanter" and logged[0].dice == [6, 6, 1]
    assert logged[0].degree == "setback" and logged[0].total == 1
    stlog = [s for s in await dec.stlog() if s.kind == "roll"]
    assert stlog[-1].text.startswith("(secret) Alice rolls 3 dice")
    verified = await dec.one(f"verify {result['id']}", as_="alice")  # a secret roll: its roller sees it
    assert "rolled Decanter" in verified.text
    hidden = await dec.one(f"verify {result['id']}", as_="bob")  # others learn only that it is secret
    assert "rolled" not in hidden.text and (hidden.result or {}).get("secret") is True, hidden.text


async def test_bad_input(dec: Chat) -> None:
    assert "Which DC?" in await refused(dec, "roll 3")
    assert "Which pool?" in await refused(dec, "roll")
    assert "A DC goes from 1 to 100" in await refused(dec, "roll 3 dc 0")
    assert "Unknown trait 'foo'" in await refused(dec, "roll foo dc 2")
    assert "no active Decanter character" in await refused(dec, "roll dex dc 2")
    assert "above the maximum of 50" in await refused(dec, "roll 51 dc 30")
    assert "write vs once" in await refused(dec, "roll 3 vs 2 vs 1")
    assert "helper's pool as a number" in await refused(dec, "roll 3 dc 2 aid npc x")
    assert "Only numbers can be taken away" in await refused(dec, "roll 3-dex dc 2")


# ---------------------------------------------------------------- odds


async def test_odds_command(dec: Chat) -> None:
    reply = await dec.one("odds 5 dc 3")
    assert reply.text == (
        "Odds for 5 dice vs DC 3 (Challenging): botch 13.2%, setback 36.8%, success 21.1%,"
        " extra successes 28.9%; average 2.50 successes."
    )
    assert (await dec.one("odds 7 dc 3")).text.endswith("an automatic success (write force to roll).")
    contest = await dec.one("odds 3 vs 3")
    assert contest.text == "Odds for 3 dice against 3 dice: you win 50.0%, they win 50.0%."
    assert (await dec.one("odds 4 dc 2 half madv")).error is not None


async def test_the_end_markers_declare_nothing_and_run_as_typed(dec: Chat) -> None:
    """``* * *``, ``***``, ``scene end``, ``night end`` and ``story end`` declare ``params=()``: the
    router binds nothing, so the lines typed before run as before (words after them ignored)."""
    for line in ("* * *", "***", "scene end", "scene end for tonight"):
        assert (await dec.one(line)).text == "The scene ends here.", line
    assert (await dec.one("night end", as_="gm", st=True)).text == "The night ends here."
    story = await dec.one("story end", as_="gm", st=True)
    assert story.text == "The story arc ends: Debts and secrets cost from Status again."
