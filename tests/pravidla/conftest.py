from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gateway.testing import Chat
from tests.helpers.chat import play


@pytest.fixture
async def pr(chat: Chat) -> AsyncIterator[Chat]:
    """The ``chat`` fixture with its channel switched to Pravidla (messages in Czech by default)."""
    yield await play(chat, "pravidla", as_="st")
