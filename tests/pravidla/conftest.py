from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.conftest import Chat


@pytest.fixture
async def pr(chat: Chat) -> AsyncIterator[Chat]:
    """The ``chat`` fixture with its channel switched to Pravidla (messages in Czech by default)."""
    reply = await chat.one("system pravidla", as_="st", st=True)
    assert reply.error is None, reply.text
    yield chat
