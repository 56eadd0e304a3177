"""State that decides what a request gets gives the same answer whichever gateway serves it: two
gateways on one vault (SQLite and PostgreSQL), one after the other and at once. Link-code limits are
counted from vault rows, replay marks are vault rows. (The HTTP API's Idempotency-Key across processes:
tests/core/test_http_idempotency.py; Second Life's replays and rate limits: tests/secondlife/.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest

from gateway import Repeated
from gateway.core.types import Channel, Identity, InboundMessage, Reply
from gateway.delivery import seen
from gateway.testing import Chat, start_chat

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


@dataclass(frozen=True)
class Limit:
    command: str  # {i}: the request's number
    limit: int
    counted: Callable[[Reply | str], bool]  # what the limit allows ``limit`` of
    refusal: str


CODES = Limit("link", CODES_PER_HOUR, issued, "link codes in the last hour")
GUESSES = Limit("link WRONG{i:03d}", FAILURES_PER_HOUR, looked_up, "Too many wrong link codes")
LIMITS = [pytest.param(CODES, id="codes"), pytest.param(GUESSES, id="wrong codes")]


@pytest.mark.parametrize("limit", LIMITS)
async def test_link_limits_hold_across_gateways(two: tuple[Chat, Chat], limit: Limit) -> None:
    answers = [await say(two[i % 2], limit.command.format(i=i)) for i in range(limit.limit + 2)]
    assert [limit.counted(a) for a in answers] == [True] * limit.limit + [False] * 2
    for refused in answers[limit.limit :]:
        assert isinstance(refused, Reply) and limit.refusal in refused.text


@pytest.mark.parametrize("limit", LIMITS)
async def test_link_limits_hold_for_requests_at_once(two: tuple[Chat, Chat], limit: Limit) -> None:
    """Asking (or guessing) in parallel through both gateways gets no more than the limit allows."""
    assert limit.counted(await say(two[0], limit.command.format(i=0)))  # the person exists first
    racing = 3 * limit.limit
    answers = await asyncio.gather(*(say(two[i % 2], limit.command.format(i=i + 1)) for i in range(racing)))
    assert sum(limit.counted(a) for a in answers) == limit.limit - 1
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
