"""``Router.run``: the replies with what the message's own unit learnt (sender, reader's language,
Storyteller flag) and an adapter's read run inside that unit; ``Vault.read`` units take no write
lock and write nothing. On SQLite and PostgreSQL (their units run different code)."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, text
from sqlalchemy.exc import DBAPIError, OperationalError
from sqlmodel import select

from gateway import Handled, Reading
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.testing import Chat, start_chat
from gateway.vault.models import Person, RollLog

MAIN = Channel(platform="console", id="main")


def message(text: str, who: str = "mira", **kw: Any) -> InboundMessage:
    return InboundMessage(
        sender=Identity(platform="console", id=who, display_name=who.title()), channel=MAIN, text=text, **kw
    )


async def rolls_in_unit(reading: Reading) -> int:
    """The roll-log rows as the message's own unit sees them (its roll not yet committed)."""
    return int((await reading.unit.session.exec(select(func.count()).select_from(RollLog))).one())


async def units_opened(chat: Chat, run: Any) -> tuple[Any, int]:
    """``run()``'s answer and how many units of work (read or write) it opened (the outbox workers
    and leases open theirs in tasks of their own meanwhile)."""
    vault = chat.services.vault
    opened: list[str] = []
    unit, read = vault.unit, vault.read
    mine = asyncio.current_task()

    def counting_unit() -> Any:
        if asyncio.current_task() is mine:
            opened.append("unit")
        return unit()

    def counting_read() -> Any:
        if asyncio.current_task() is mine:
            opened.append("read")
        return read()

    vault.unit, vault.read = counting_unit, counting_read  # type: ignore[method-assign]
    try:
        return await run(), len(opened)
    finally:
        del vault.unit, vault.read


async def test_run_hands_back_the_sender_locale_and_an_in_unit_read(any_chat: Chat) -> None:
    chat = any_chat
    chat.dice.extend([9, 5, 10])
    handled: Handled[int]
    handled, units = await units_opened(chat, lambda: chat.services.run(message("roll 3"), rolls_in_unit))
    assert units == 1  # the command, the sender and the adapter's read: one unit
    assert handled.state == 1  # the read saw the roll its own unit logged
    assert len(handled.replies) == 1 and handled.replies[0].error is None
    assert handled.sender is not None and handled.sender.identity_key == "console:mira"
    assert (handled.locale, handled.storyteller) == ("en", False)
    assert handled.reader_locale("cs") == "cs"  # nobody chose a language: the client's guess counts
    # A language the command itself sets is what the adapter's own words follow.
    handled = await chat.services.run(message("lang cs"))
    assert handled.sender is not None and handled.sender.person_locale == "cs"
    assert handled.reader_locale("ru") == "cs"


async def test_the_storyteller_flag_comes_from_the_same_unit(any_chat: Chat) -> None:
    any_chat.dice.extend([9])
    handled = await any_chat.services.run(message("roll 1", who="vera", roles=frozenset({"storyteller"})))
    assert handled.storyteller is True and handled.replies[0].error is None


async def test_a_refused_command_runs_no_read_and_keeps_nothing(any_chat: Chat) -> None:
    chat = any_chat
    handled = await chat.services.run(message("roll banana"), rolls_in_unit)
    assert handled.replies[0].error is not None and handled.state is None
    assert handled.sender is not None and handled.locale == "en"
    async with chat.services.vault.read() as unit:
        assert (await unit.session.exec(select(func.count()).select_from(RollLog))).one() == 0


async def test_reader_locale_reads_without_writing(any_chat: Chat) -> None:
    chat = any_chat
    nobody = Identity(platform="console", id="nobody", display_name="Nobody")
    assert await chat.services.reader_locale(nobody, MAIN, "ru") == "ru"
    async with chat.services.vault.read() as unit:
        assert (await unit.session.exec(select(func.count()).select_from(Person))).one() == 0
    await chat.say("lang cs", as_="nobody")
    assert await chat.services.reader_locale(nobody, MAIN, "ru") == "cs"


async def test_a_write_in_a_read_unit_fails_and_leaves_nothing(any_chat: Chat) -> None:
    vault = any_chat.services.vault
    with pytest.raises(DBAPIError):  # SQLite: query_only; PostgreSQL: a READ ONLY transaction
        async with vault.read() as unit:
            await unit.connection.execute(text("INSERT INTO kv (scope, key, value) VALUES ('t', 'k', '1')"))
    async with vault.read() as unit:
        assert (await unit.connection.execute(text("SELECT count(*) FROM kv"))).scalar_one() == 0


async def test_a_sqlite_read_does_not_wait_for_the_write_lock(tmp_path: Path) -> None:
    """Another connection holds SQLite's write lock: a read unit goes ahead at once, a unit of work
    waits for the lock (and, past its patience, fails)."""
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}")
    try:
        chat.dice.extend([9])
        await chat.say("roll 1")
        holder = sqlite3.connect(tmp_path / "vault.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        try:
            vault = chat.services.vault
            async with vault.read() as unit:  # no wait: a deferred BEGIN on its own connection
                found = (await unit.session.exec(select(func.count()).select_from(RollLog))).one()
            assert found == 1
            vault.busy_timeout = 0.05
            with pytest.raises((sqlite3.OperationalError, OperationalError)):
                async with vault.unit():
                    pass
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        # A read while this process's own unit of work holds the lock: not queued behind it.
        async with vault.unit():
            # A context of its own: the task is not inside this unit (units do not nest).
            read = asyncio.create_task(_count_rolls(chat), context=contextvars.Context())
            for _ in range(100):
                if read.done():
                    break
                await asyncio.sleep(0.01)
            assert read.done()  # done while this unit of work still held the write lock
        assert read.result() == 1
    finally:
        await chat.stop()


async def _count_rolls(chat: Chat) -> int:
    async with chat.services.vault.read() as unit:
        return int((await unit.session.exec(select(func.count()).select_from(RollLog))).one())
