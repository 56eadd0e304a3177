"""Decanter test fixtures: a chat whose channels play Decanter."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gateway.testing import Chat
from tests.helpers.chat import playing


@pytest.fixture
async def dec(vault_url: str) -> AsyncIterator[Chat]:
    """A chat over a fresh vault (SQLite; PostgreSQL too when configured); ``main`` plays Decanter."""
    async with playing(vault_url, "decanter") as chat:
        yield chat
