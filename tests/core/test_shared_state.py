"""State that decides what a request gets gives the same answer whichever gateway serves it: two
gateways on one vault (SQLite and PostgreSQL), one after the other and at once. Link-code limits are
counted from vault rows, replay marks are vault rows. (The HTTP API's Idempotency-Key across processes:
tests/core/test_http_idempotency.py; Second Life's replays and rate limits: tests/secondlife/.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from gateway import Repeated, seen
from gateway.testing import Chat, start_chat
from gateway.types import Channel, Identity, InboundMessage, Reply

CODES_PER_HOUR = 5
FAILURES_PER_HOUR = 10


@pytest.fixture
async def two(vault_url: str) -> AsyncIterator[tuple[Chat, Chat]]:
    first = await start_chat(vault_url)
    second = await start_chat(vault_url)
    yield first, second
    await second.stop()
    await first.stop()


async def say(chat: Chat, text: str, as_: str = "mira") -> Reply | str:
    """The one reply, or the text of the refusal."""
    replies = await chat.say(text, as_)
    assert len(replies) == 1, replies
    return replies[0]


def issued(reply: Reply | str) -> bool:
    return isinstance(reply, Reply) and reply.result is not None and reply.result.get("kind") == "link_code"


def looked_up(reply: Reply | str) -> bool:
    """A wrong code answered after its look-up (not refused by the failure limit beforehand)."""
    return isinstance(reply, Reply) and reply.text.startswith("No link code")


async def test_link_code_issue_limit_holds_across_gateways(two: tuple[Chat, Chat]) -> None:
    answers = [await say(two[i % 2], "link") for i in range(CODES_PER_HOUR + 2)]
    assert [issued(a) for a in answers] == [True] * CODES_PER_HOUR + [False] * 2
    for refused in answers[CODES_PER_HOUR:]:
        assert isinstance(refused, Reply) and "link codes in the last hour" in refused.text


async def test_link_code_issue_limit_holds_for_requests_at_once(two: tuple[Chat, Chat]) -> None:
    assert issued(await say(two[0], "link"))  # the person exists before the race
    racing = 3 * CODES_PER_HOUR
    answers = await asyncio.gather(*(say(two[i % 2], "link") for i in range(racing)))
    assert sum(issued(a) for a in answers) == CODES_PER_HOUR - 1


async def test_wrong_code_limit_holds_across_gateways(two: tuple[Chat, Chat]) -> None:
    answers = [await say(two[i % 2], f"link WRONG{i:03d}") for i in range(FAILURES_PER_HOUR + 2)]
    assert [looked_up(a) for a in answers] == [True] * FAILURES_PER_HOUR + [False] * 2
    for refused in answers[FAILURES_PER_HOUR:]:
        assert isinstance(refused, Reply) and "Too many wrong link codes" in refused.text


async def test_wrong_code_limit_holds_for_guesses_at_once(two: tuple[Chat, Chat]) -> None:
    """Guessing in parallel through both gateways looks up no more codes than the limit allows."""
    assert looked_up(await say(two[0], "link WRONG000"))  # the identity exists before the race
    racing = 2 * FAILURES_PER_HOUR
    answers = await asyncio.gather(*(say(two[i % 2], f"link WRONG{i + 1:03d}") for i in range(racing)))
    assert sum(looked_up(a) for a in answers) == FAILURES_PER_HOUR - 1
    assert all(isinstance(a, Reply) and a.error != "internal" for a in answers), answers


def signed(message_id: str) -> InboundMessage:
    """A request whose id is its signature: a repeat is refused, not answered again."""
    return InboundMessage(
        sender=Identity(platform="console", id="mira", display_name="Mira"),
        channel=Channel(platform="console", id="main"),
        text="roll 1",
        message_id=message_id,
        refuse_repeat=True,
    )


async def test_a_replay_to_the_other_gateway_is_refused(two: tuple[Chat, Chat]) -> None:
    first, second = two
    first.dice.extend([7])
    second.dice.extend([7])
    assert len(await first.services.handle(signed("hmac:abc"))) == 1
    with pytest.raises(Repeated):
        await second.services.handle(signed("hmac:abc"))
    assert second.dice.remaining == 1


async def test_a_replay_racing_the_original_on_the_other_gateway_runs_once(two: tuple[Chat, Chat]) -> None:
    first, second = two
    first.dice.extend([7])
    second.dice.extend([7])

    async def attempt(chat: Chat) -> bool:
        try:
            await chat.services.handle(signed("hmac:race"))
        except Repeated:
            return False
        return True

    assert sorted(await asyncio.gather(attempt(first), attempt(second))) == [False, True]
    assert first.dice.remaining + second.dice.remaining == 1


async def test_an_adapters_replay_mark_is_seen_by_the_other_gateway(two: tuple[Chat, Chat]) -> None:
    first, second = two
    now = first.clock()
    assert await seen.mark(first.services.vault, "sl", "hmac:xyz", now)
    assert not await seen.mark(second.services.vault, "sl", "hmac:xyz", now)
    assert await seen.recent(second.services.vault, "sl", now) == ["hmac:xyz"]
