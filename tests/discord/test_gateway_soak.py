"""The CI-sized slice of soak_gateway.py: drops and re-sent events, every command answered once."""

from __future__ import annotations

import pytest

from tests.discord.soak_gateway import soak

pytestmark = pytest.mark.asyncio


async def test_drops_and_resends_answer_every_command_once(sqlite_url: str) -> None:
    outcome = await soak(sqlite_url, events=30, drops=2, overlap=2)
    assert outcome.resumes >= 1 and outcome.identifies == 1
    assert outcome.replayed >= 1  # the fake did re-send events the bot had seen
    assert (outcome.doubled, outcome.lost) == (0, 0), outcome
