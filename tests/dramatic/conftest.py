"""Dramatic Systems test fixtures: a chat whose channels play Dramatic Systems."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gateway.testing import Chat
from tests.helpers.chat import playing


@pytest.fixture
async def dra(vault_url: str) -> AsyncIterator[Chat]:
    """A chat over a fresh vault (SQLite; PostgreSQL too when configured); ``main`` plays Dramatic Systems."""
    async with playing(vault_url, "dramatic") as chat:
        yield chat
