"""Random command lines for every command of every installed rule system, through the real router,
as a player and as a Storyteller: every line is answered, none with an internal error, and nothing
is logged at error level (the router logs a traceback for each internal error)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import structlog
from hypothesis import given
from hypothesis import strategies as st

from gateway.core.app import Gateway
from gateway.core.dice import SeededDice
from gateway.testing import Chat, Clock, make_settings
from tests.fuzz.profile import ci_settings
from tests.fuzz.words import SYSTEMS, lines

CI = ci_settings(60)


async def start(url: str, system: str) -> Chat:
    """A router over a fresh SQLite vault whose ``main`` channel plays ``system``, seeded dice (a
    scripted list would run out under ``roll 1000``), and a character for the player ``alice``."""
    clock = Clock()
    gateway = Gateway(make_settings(url), dice=SeededDice(7), clock=clock, platforms=())
    await gateway.upgrade_vault()
    await gateway.start()
    chat = Chat(gateway=gateway, dice=None, clock=clock)  # type: ignore[arg-type]
    for line, who, st_role in ((f"system {system}", "gm", True), ("char new Mira", "alice", False)):
        reply = await chat.one(line, as_=who, st=st_role)
        assert reply.error is None, reply.text
    return chat


async def answered_cleanly(chat: Chat, line: str, *, who: str = "alice", channel: str = "main") -> None:
    """``line`` said by a player and by a Storyteller: no internal error, nothing logged as an error."""
    with structlog.testing.capture_logs() as logs:
        for st_role in (False, True):
            as_ = "gm" if st_role else who
            for reply in await chat.say(line, as_=as_, st=st_role, channel=channel):
                assert reply.error != "internal", (line, reply)
                assert reply.text, (line, reply)
    errors = [e for e in logs if e.get("log_level") in ("error", "critical") or e.get("exc_info")]
    assert not errors, (line, errors)


@pytest.fixture(params=SYSTEMS)
async def system_chat(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[str, Chat]]:
    chat = await start(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", request.param)
    yield request.param, chat
    await chat.gateway.stop()


@CI
@given(data=st.data())
async def test_random_lines_for_every_command(system_chat: tuple[str, Chat], data: st.DataObject) -> None:
    system, chat = system_chat
    await answered_cleanly(chat, data.draw(lines(system), label="line"))


ISSUE_LINES = (
    "extended start ² x",
    "team start ²",
    "roll ① +1",
    "odds ①",
    "odds 3 need ++1",
    "sun direct ²",
    "heal ①",
    "roll १२",
    "init add Bob 99999999999999999999 1",
    "init add Bob 999999999999999999 1",
    "roll 3 +" + "9" * 5000,
    "roll \udc00",
    "char new \ud800x",
    "roll 3 nul\x00",
)


@pytest.mark.parametrize("system", SYSTEMS)
async def test_lines_from_the_issue(vault_url: str, system: str) -> None:
    """The lines the reliability campaign found (issue 21, D2-D4), in every system, on every engine
    (PostgreSQL is the one that refuses NUL)."""
    chat = await start(vault_url, system)
    try:
        for line in ISSUE_LINES:
            await answered_cleanly(chat, line)
        for line in ("roll 3", "char new Ana", "sheet"):  # lone surrogates and NUL in who and where
            await answered_cleanly(chat, line, who="\ud800x", channel="\udc00")
            await answered_cleanly(chat, line, who="nul\x00", channel="#a\x00b")
    finally:
        await chat.gateway.stop()
