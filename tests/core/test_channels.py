"""A channel's rule system set by an adapter outside a command (``gateway console --system``)."""

from __future__ import annotations

import io
from pathlib import Path

from adapters.console.repl import run_console
from gateway.core.settings import Settings
from gateway.core.types import Channel
from gateway.features import channels
from gateway.testing import Chat
from gateway.vault.models import ChannelRow


async def test_set_system_creates_or_changes_the_channel(any_chat: Chat) -> None:
    vault = any_chat.services.vault
    room = Channel(platform="web", id="room")
    await channels.set_system(vault, room, "decanter")
    await channels.set_system(vault, room, "nightcap")
    async with vault.transaction() as session:
        row = await session.get(ChannelRow, room.key)
    assert row is not None and row.system == "nightcap"


async def test_console_system_option_sets_the_console_channel(tmp_path: Path) -> None:
    settings = Settings(vault={"url": f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"})
    out = io.StringIO()
    code = await run_console(
        settings, name="ann", system="decanter", stdin=io.StringIO("system\n"), stdout=out
    )
    assert code == 0
    assert out.getvalue().startswith("This channel plays Decanter.")  # not the default, Nightcap
