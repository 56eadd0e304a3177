from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from gateway.testing import Chat, start_chat


@pytest.fixture
def vault_file(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'conflict.db'}"


@pytest.fixture
async def wounded_chat(vault_file: str) -> AsyncIterator[Chat]:
    """A chat whose chronicle has wound penalties switched on."""
    chat = await start_chat(vault_file, nightcap={"wound_penalties": True})
    yield chat
    await chat.gateway.stop()
