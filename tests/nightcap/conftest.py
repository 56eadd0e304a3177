"""Nightcap fixtures: ``make_chat(**sections)`` starts a chat with extra settings (``nightcap={...}``,
``stlog={"targets": [...]}``) over a fresh SQLite vault, and stops it after the test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.testing import Chat, start_chat

MakeChat = Callable[..., Awaitable[Chat]]


@pytest.fixture
async def make_chat(tmp_path: Path) -> AsyncIterator[MakeChat]:
    started: list[Chat] = []

    async def make(**sections: Any) -> Chat:
        chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / f'vault{len(started)}.db'}", **sections)
        started.append(chat)
        return chat

    yield make
    for chat in started:
        await chat.gateway.stop()
