"""Challenges between players, possibly on different platforms: Willpower fixed before the dice,
results in both channels, a time limit on the injected clock, and pending challenges across a restart."""

from __future__ import annotations

from sqlmodel import col, select

from gateway.testing import Chat, start_chat
from gateway.vault.models import RollLog
from tests.conflict.helpers import make_character, outbox, pool, set_pool

SL = {"platform": "secondlife", "channel": "region-a"}
DC = {"platform": "discord", "channel": "4242"}


async def setup_dorian_and_detective(chat: Chat) -> tuple[int, int]:
    dorian = await make_character(chat, "dorian", "Dorian", social=4, mental=2, spirit=1, **SL)
    detective = await make_character(chat, "det", "Detective", mental=3, spirit=1, **DC)
    return dorian, detective


async def test_dorians_lie_across_platforms_is_a_deadlock(chat: Chat) -> None:
    _dorian, _detective = await setup_dorian_and_detective(chat)
    chat.dice.extend([5])
    await chat.say("roll 1", as_="det", **DC)  # the detective has been playing on Discord
    pending = await chat.one("challenge Detective social", as_="dorian", **SL)
    assert pending.error is None, pending.text
    assert pending.text == (
        "Dorian challenges Detective (Social 4). Detective answers with defend TRAIT [+N|-N] [wp],"
        " or concede, within 5 minutes."
    )
    assert pending.result is not None and pending.result["status"] == "pending"
    # The detective is told where they play.
    rows = await outbox(chat, "discord")
    assert [(r.target, r.payload["result"]["status"]) for r in rows] == [("4242", "pending")]

    chat.dice.extend([7, 8, 3, 1, 8, 6, 4, 2])
    reply = await chat.one("defend mental +1", as_="det", **DC)
    assert reply.error is None, reply.text
    r = reply.result
    assert r is not None
    assert (r["kind"], r["context"], r["outcome"], r["margin"], r["winner"]) == (
        "contest",
        "challenge",
        "deadlock",
        0,
        None,
    )
    assert [s["dice"] for s in r["sides"]] == [[7, 8, 3, 1], [8, 6, 4, 2]]
    assert [s["total"] for s in r["sides"]] == [1, 1]
    assert r["names"] == ["Dorian", "Detective"]
    assert reply.text == (
        f"Challenge: Dorian rolls Social 4: 7 8 3 1 → 1 (Marginal) vs Detective Mental 3+1 = 4 dice:"
        f" 8 6 4 2 → 1 (Marginal): Deadlock, margin 0 #{r['id']}"
    )
    # The challenger's side gets the same result in their Second Life channel, through the outbox.
    sl_rows = await outbox(chat, "secondlife")
    assert len(sl_rows) == 1
    assert sl_rows[0].target == "region-a"
    assert sl_rows[0].payload["text"] == reply.text
    assert sl_rows[0].payload["result"]["id"] == r["id"]
    async with chat.services.vault.transaction() as session:
        logged = (await session.exec(select(RollLog).where(col(RollLog.public_id) == r["id"]))).one()
        assert logged.kind == "contest" and logged.dice == [7, 8, 3, 1, 8, 6, 4, 2]
    kinds = [e.kind for e in await chat.stlog()]
    assert kinds.count("challenge") == 2
    # Settled: nothing left to defend.
    assert (await chat.one("defend mental", as_="det", **DC)).error == "invalid"


async def test_willpower_is_declared_and_paid_before_any_die(chat: Chat) -> None:
    dorian, detective = await setup_dorian_and_detective(chat)
    assert await pool(chat, dorian, "willpower") == 3
    await chat.one("challenge Detective social wp", as_="dorian", **SL)
    assert await pool(chat, dorian, "willpower") == 2
    await set_pool(chat, detective, "willpower", 0)
    chat.dice.extend([7, 8, 3, 1, 8, 6, 4, 2])
    refused = await chat.one("defend mental wp", as_="det", **DC)
    assert refused.error == "invalid" and "no Willpower left" in refused.text
    assert chat.dice.remaining == 8  # not a die was thrown
    # The challenge is still there to answer (the refusal rolled everything back).
    reply = await chat.one("defend mental +1", as_="det", **DC)
    r = reply.result
    assert r is not None
    assert [s["willpower"] for s in r["sides"]] == [True, False]
    assert (r["sides"][0]["total"], r["outcome"], r["winner"], r["margin"]) == (2, "narrow", 0, 1)
    assert "Narrow: Dorian wins by 1" in reply.text


async def test_both_botch(chat: Chat) -> None:
    await setup_dorian_and_detective(chat)
    await chat.one("challenge Detective 1", as_="dorian", **SL)
    chat.dice.extend([1, 1, 1])
    r = (await chat.one("defend 2", as_="det", **DC)).result
    assert r is not None
    assert (r["outcome"], r["winner"]) == ("both_botch", None)
    assert [s["degree"] for s in r["sides"]] == ["botch", "botch"]


async def test_concede_refunds_willpower_and_tells_the_challenger(chat: Chat) -> None:
    dorian, _ = await setup_dorian_and_detective(chat)
    await chat.one("challenge Detective social wp", as_="dorian", **SL)
    reply = await chat.one("concede", as_="det", **DC)
    assert reply.text == "Detective concedes to Dorian: no dice, Dorian wins. Willpower returned."
    assert reply.result is not None and reply.result["status"] == "conceded"
    assert await pool(chat, dorian, "willpower") == 3
    assert [r.payload["result"]["status"] for r in await outbox(chat, "secondlife")] == ["conceded"]


async def test_time_limit_on_the_injected_clock(chat: Chat) -> None:
    dorian, _ = await setup_dorian_and_detective(chat)
    await chat.one("challenge Detective social wp", as_="dorian", **SL)
    chat.clock.advance(minutes=4, seconds=59)
    listed = await chat.one("challenge", as_="det", **DC)
    assert listed.result is not None and len(listed.result["pending"]) == 1
    chat.clock.advance(seconds=1)
    late = await chat.say("defend mental", as_="det", **DC)
    assert late[-1].error == "invalid"
    assert late[-1].text == "Dorian's challenge ran out at 20:05:00 UTC; there is nothing left to answer."
    # The refusal rolled the sweep back too; the next command sweeps for good.
    replies = await chat.say("challenge", as_="dorian", **SL)
    assert replies[0].text == "Detective did not answer Dorian's challenge in time. Willpower returned."
    assert replies[0].result is not None and replies[0].result["status"] == "expired"
    assert await pool(chat, dorian, "willpower") == 3


async def test_time_limit_is_a_setting(vault_file: str) -> None:
    chat = await start_chat(vault_file, nightcap={"challenge_timeout_seconds": 60})
    try:
        await setup_dorian_and_detective(chat)
        pending = await chat.one("challenge Detective social", as_="dorian", **SL)
        assert pending.text.endswith("within 1 minute.")
        chat.clock.advance(seconds=61)
        await chat.say("challenge", as_="dorian", **SL)
        assert (await chat.one("defend mental", as_="det", **DC)).error == "invalid"
    finally:
        await chat.gateway.stop()


async def test_pending_challenge_survives_a_restart(vault_file: str) -> None:
    chat = await start_chat(vault_file)
    await setup_dorian_and_detective(chat)
    await chat.one("challenge Detective social wp", as_="dorian", **SL)
    await chat.gateway.stop()
    chat = await start_chat(vault_file)
    try:
        chat.dice.extend([10, 10, 9, 9, 2, 2, 2, 2])
        reply = await chat.one("defend mental", as_="det", **DC)
        r = reply.result
        assert r is not None, reply.text
        assert (r["sides"][0]["total"], r["sides"][1]["total"], r["outcome"], r["winner"]) == (
            7,
            0,
            "decisive",
            0,
        )
    finally:
        await chat.gateway.stop()


async def test_challenge_refusals(chat: Chat) -> None:
    _dorian, detective = await setup_dorian_and_detective(chat)
    await make_character(chat, "x", "Xan", **SL)
    assert "No character" in (await chat.one("challenge Nobody social", as_="dorian", **SL)).text
    assert "themselves" in (await chat.one("challenge Dorian social", as_="dorian", **SL)).text
    assert (await chat.one("challenge Detective", as_="dorian", **SL)).error == "invalid"
    await chat.one("challenge Detective social", as_="dorian", **SL)
    busy = await chat.one("challenge Detective social", as_="x", **SL)
    assert busy.text == "Detective already has a challenge to answer; wait for it to be settled."
    again = await chat.one("challenge Xan social", as_="dorian", **SL)
    assert "already has a challenge waiting on Detective" in again.text
    withdrawn = await chat.one("challenge cancel", as_="dorian", **SL)
    assert withdrawn.result is not None and withdrawn.result["status"] == "withdrawn"
    assert (await chat.one("concede", as_="det", **DC)).error == "invalid"
    await set_pool(chat, detective, "damage", 10)
    assert "Incapacitated" in (await chat.one("challenge Detective social", as_="dorian", **SL)).text
    nochar = await chat.one("challenge Detective social", as_="nobody", **SL)
    assert nochar.error == "invalid" and "no active character" in nochar.text
