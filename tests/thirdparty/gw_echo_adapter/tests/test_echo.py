"""The echo adapter tested as its author would: with gateway.testing's fixtures and doubles only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gw_echo_adapter import EchoAdapter

from gateway.testing import Chat, eventually, start_chat


def lines(path: Path) -> list[dict[str, Any]]:
    return (
        [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    )


async def echo_chat(url: str, path: Path) -> tuple[Chat, EchoAdapter]:
    chat = await start_chat(url, platforms=["echo"], echo={"path": str(path)})
    adapter = chat.gateway.adapters["echo"]
    assert isinstance(adapter, EchoAdapter)
    return chat, adapter


async def test_a_command_heard_is_answered_in_the_file(vault_url: str, tmp_path: Path) -> None:
    out = tmp_path / "echo.jsonl"
    chat, echo = await echo_chat(vault_url, out)
    try:
        chat.dice.extend([8, 3])
        await echo.hear("mira", "!roll 2")
        await eventually(lambda: len(lines(out)) == 1)
        [line] = lines(out)
        assert line["room"] == "lobby" and line["kind"] == "reply"
        assert line["text"].startswith("Mira rolls 2")
        # Chat that is not a command is not answered.
        await echo.hear("mira", "good evening")
        assert len(lines(out)) == 1
    finally:
        await chat.stop()


async def test_a_line_it_cannot_write_is_retried(sqlite_url: str, tmp_path: Path) -> None:
    out = tmp_path / "later" / "echo.jsonl"
    chat, echo = await echo_chat(sqlite_url, out)
    try:
        await echo.hear("mira", "!help")
        await eventually(lambda: echo.last_error is not None)
        out.parent.mkdir()
        chat.clock.advance(minutes=10)  # past the retry's backoff, on the gateway's clock
        chat.gateway.outbox.wake(["echo"])
        await eventually(lambda: len(lines(out)) == 1)
        assert echo.last_error is None
    finally:
        await chat.stop()


async def test_without_its_section_it_does_not_run(sqlite_url: str) -> None:
    chat = await start_chat(sqlite_url, platforms=["echo"])
    try:
        assert "echo" not in chat.gateway.adapters
    finally:
        await chat.stop()
