"""Marks of messages already seen (``gateway.delivery.seen``): Second Life replay marks, HTTP idempotency
keys."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gateway.delivery import seen
from gateway.testing import Chat


async def test_a_mark_is_made_once_and_long_ids_are_kept_as_digests(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    assert await seen.mark(vault, "test", "hmac:abc", now) is True
    assert await seen.mark(vault, "test", "hmac:abc", now) is False
    assert await seen.mark(vault, "other", "hmac:abc", now) is True  # platforms apart
    long_id = "hmac:" + "x" * 300
    assert await seen.mark(vault, "test", long_id, now) is True
    assert await seen.mark(vault, "test", long_id, now) is False
    stored = await seen.recent(vault, "test", now)
    assert "hmac:abc" in stored
    assert any(s.startswith("sha256:") for s in stored)


async def test_a_mark_rolls_back_with_the_callers_unit(any_chat: Chat) -> None:
    vault, now = any_chat.services.vault, any_chat.clock()
    with pytest.raises(ZeroDivisionError):
        async with vault.transaction() as session:
            assert await seen.mark(session, "test", "m1", now) is True
            _ = 1 / 0
    assert await seen.mark(vault, "test", "m1", now) is True


async def test_recent_and_prune_go_by_the_time_of_the_mark(any_chat: Chat) -> None:
    vault, clock = any_chat.services.vault, any_chat.clock
    await seen.mark(vault, "test", "old", clock())
    await seen.mark(vault, "other", "old", clock())
    clock.advance(hours=2)
    await seen.mark(vault, "test", "new", clock())
    assert await seen.recent(vault, "test", clock() - timedelta(hours=1)) == ["new"]
    assert await seen.prune(vault, "test", clock() - timedelta(hours=1)) == 1
    assert sorted(await seen.recent(vault, "test", clock() - timedelta(days=1))) == ["new"]
    assert await seen.recent(vault, "other", clock() - timedelta(days=1)) == ["old"]
