from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from gateway.testing import Chat
from tests.helpers.chat import play


@pytest.fixture
async def nw(chat: Chat) -> AsyncIterator[Chat]:
    """The ``chat`` fixture with its channel switched to Night Wanderers (messages in Russian)."""
    yield await play(chat, "nightwanderers", as_="st")
