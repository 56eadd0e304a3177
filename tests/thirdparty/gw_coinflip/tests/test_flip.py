"""Coin Flip tested as its author would: with gateway.testing's fixtures and doubles only."""

from __future__ import annotations

from gateway import RetryLater
from gateway.testing import Chat, FakeAdapter, start_chat


async def play(chat: Chat) -> None:
    switched = await chat.one("system coinflip", as_="st", st=True)
    assert switched.text == "This channel now plays Coin Flip."


async def test_it_is_installed_and_plays(chat: Chat) -> None:
    listing = await chat.one("system")
    assert "coinflip" in listing.result["installed"]
    assert "coinflip (Coin Flip)" in listing.text
    await play(chat)
    chat.dice.extend([2, 1, 2])
    reply = await chat.one("flip 3", as_="mira")
    assert reply.result["system"] == "coinflip" and reply.result["successes"] == 2
    assert reply.text == f"Mira flips 3: H T H → 2 heads #{reply.result['id']}"
    verified = await chat.one(f"verify {reply.result['id']}")
    assert verified.result["roll"]["dice"] == [2, 1, 2]
    assert "flip" in (await chat.one("help")).result["commands"]


async def test_a_bad_count_is_refused_on_every_vault(any_chat: Chat) -> None:
    await play(any_chat)
    for line in ("flip 0", "flip 21", "flip many"):
        assert (await any_chat.one(line)).error == "invalid", line
    assert [line for line in await any_chat.stlog() if line.kind == "roll"] == []


async def test_a_flip_reaches_the_storytellers_room_despite_a_failure(sqlite_url: str) -> None:
    table = FakeAdapter("table")
    table.fail(RetryLater("the table is busy"))
    chat = await start_chat(sqlite_url, adapters=[table], stlog={"targets": ["table:st-room"]})
    try:
        await play(chat)
        chat.dice.extend([2])
        reply = await chat.one("flip", as_="mira")
        await table.wait_for_attempts(1)  # it failed: the outbox retries after a backoff
        chat.retry_now()
        [row] = await table.wait_for(1)
        assert (row.target, row.text, row.payload["kind"]) == ("st-room", reply.text, "stlog")
        assert len(table.attempts) == 2
    finally:
        await chat.stop()
