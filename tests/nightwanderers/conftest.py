from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import Chat


@pytest.fixture
async def nw(chat: Chat) -> AsyncIterator[Chat]:
    """The ``chat`` fixture with its channel switched to Night Wanderers (messages in Russian)."""
    reply = await chat.one("system nightwanderers", as_="st", st=True)
    assert reply.error is None, reply.text
    yield chat
