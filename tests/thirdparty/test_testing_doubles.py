"""gateway.testing's own promises, the ones a third party leans on: the FakeAdapter's record and
scripted failures through the real outbox, the clock, the waits, and the per-test PostgreSQL
database."""

from __future__ import annotations

import asyncio
import os

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gateway import DeliveryFailed, RetryLater
from gateway.testing import (
    POSTGRES_URL_VARIABLE,
    Clock,
    FakeAdapter,
    eventually,
    postgres_database,
    start_chat,
)
from gateway.vault import repo


async def test_deliveries_are_recorded_and_failures_scripted(vault_url: str) -> None:
    table = FakeAdapter("table")
    table.fail(RetryLater("503"), target="st-room")
    table.fail(DeliveryFailed("webhook deleted"), target="gone")
    chat = await start_chat(vault_url, adapters=[table], stlog={"targets": ["table:st-room"]})
    try:
        assert table.platform == "table" and chat.gateway.adapters == {"table": table} and table.running
        chat.dice.extend([9, 5, 10])
        roll = await chat.one("roll 3", as_="mira")
        async with chat.services.vault.unit() as unit:
            await repo.enqueue(unit, "table", "gone", {"text": "never"}, now=chat.clock())
        chat.gateway.outbox.wake(["table"])
        await table.wait_for_attempts(2)  # st-room failed (to be retried), gone failed for good
        chat.retry_now()
        await table.wait_for(1)
        await table.wait_for_attempts(3)
        assert table.texts() == table.texts("st-room") == [roll.text]
        assert sorted(m.target for m in table.attempts) == ["gone", "st-room", "st-room"]
    finally:
        await chat.stop()
    assert not table.running


async def test_a_wait_that_never_ends_says_what_arrived(sqlite_url: str) -> None:
    table = FakeAdapter("table")
    chat = await start_chat(sqlite_url, adapters=[table])
    try:
        with pytest.raises(AssertionError, match=r"table: delivered \[\] in 0 attempts"):
            await table.wait_for(1, timeout=0.1)
    finally:
        await chat.stop()
    with pytest.raises(AssertionError, match="never"):
        await eventually(lambda: False, timeout=0.05, message="never")


def test_the_clock_stands_still_until_told() -> None:
    clock = Clock()
    start = clock()
    assert clock() == start
    clock.advance(minutes=2, seconds=3)
    assert (clock() - start).total_seconds() == 123


@pytest.mark.postgres
def test_a_postgres_database_is_fresh_and_dropped_afterwards() -> None:
    server = os.environ.get(POSTGRES_URL_VARIABLE)
    if not server:
        pytest.skip(f"{POSTGRES_URL_VARIABLE} is not set")

    async def databases() -> set[str]:
        engine = create_async_engine(server)
        async with engine.connect() as conn:
            names = {row[0] for row in await conn.execute(text("SELECT datname FROM pg_database"))}
        await engine.dispose()
        return names

    with postgres_database() as url:
        name = url.rsplit("/", 1)[1]
        assert name in asyncio.run(databases())
    assert name not in asyncio.run(databases())
