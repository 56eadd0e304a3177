"""The Storyteller log's kind and platform filters are the query's (``repo.stlog_entries``), on SQLite
and PostgreSQL: a narrow filter still finds its lines behind a hundred newer ones of another kind or
platform, and a platform is matched as written (``%`` is a letter, not a pattern)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest

from gateway.features import records
from gateway.testing import Chat, start_chat
from gateway.vault import repo


@pytest.fixture
async def logged(vault_url: str) -> AsyncIterator[Chat]:
    """Three rolls on the console, then a roll's second line and 120 other lines on Discord, newer."""
    chat = await start_chat(vault_url)
    chat.dice.extend([7, 7, 7] * 3)
    for _ in range(3):
        assert (await chat.one("roll 3", as_="mira")).error is None
    now = chat.clock.now
    async with chat.services.vault.unit() as unit:
        for i in range(121):
            await repo.write_stlog(
                unit,
                targets=[],
                person_id=None,
                character_id=None,
                channel_key="discord:42",
                kind="roll" if i == 0 else "heal",
                text=f"line {i}",
                result={"id": "abcdefg"} if i == 0 else {},
                now=now + timedelta(seconds=i + 1),
                who="Bea",
                where="discord:42",
            )
    yield chat
    await chat.stop()


async def _lines(chat: Chat, **filters: object) -> list[records.StlogLine]:
    async with chat.services.vault.read() as unit:
        return await records.stlog_lines(unit, limit=100, **filters)  # type: ignore[arg-type]


async def test_a_platform_filter_finds_its_lines_behind_newer_ones(logged: Chat) -> None:
    assert {line.channel_key for line in await _lines(logged)} == {"discord:42"}  # the newest 100
    console = await _lines(logged, platform="console")
    assert len(console) == 3 and all(line.channel_key.startswith("console:") for line in console)
    assert await _lines(logged, platform="con%") == [] and await _lines(logged, platform="consol_") == []


async def test_a_kind_filter_finds_its_lines_behind_newer_ones(logged: Chat) -> None:
    rolls = await _lines(logged, rolls_only=True)
    # The three rolls, and the line of a roll written on a row of its own.
    assert [line.text for line in rolls][-1] == "line 0" and len(rolls) == 4
    assert all(line.result.get("id") for line in rolls)
    others = await _lines(logged, rolls_only=False)
    assert len(others) == 100 and not any(line.result.get("id") for line in others)
    assert len(await _lines(logged, rolls_only=True, platform="discord")) == 1
