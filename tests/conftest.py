"""Shared fixtures: a ``chat`` that talks to a real router over a fresh, migrated vault.

``await chat.say("roll 3", as_="mira")`` returns the replies; ``chat.dice.extend([9, 5, 10])`` scripts
the faces; ``chat.clock.now`` moves time. Vault tests run on SQLite, and on PostgreSQL too when
``GATEWAY_TEST_POSTGRES_URL`` is set (``vault_url`` is parametrised).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from gateway.app import Gateway
from gateway.dice import ScriptedDice
from gateway.settings import Settings
from gateway.types import Channel, Identity, InboundMessage, Reply
from gateway.vault.repo import StlogLine, stlog_entries

POSTGRES_URL = os.environ.get("GATEWAY_TEST_POSTGRES_URL")


@dataclass
class Clock:
    now: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 20, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


@dataclass
class Chat:
    gateway: Gateway
    dice: ScriptedDice
    clock: Clock

    @property
    def services(self) -> Any:
        return self.gateway.services

    async def say(
        self,
        text: str,
        as_: str = "alice",
        *,
        platform: str = "console",
        channel: str = "main",
        st: bool = False,
        verified: bool = True,
        message_id: str | None = None,
    ) -> list[Reply]:
        message = InboundMessage(
            sender=Identity(platform=platform, id=as_, display_name=as_.title(), verified=verified),
            channel=Channel(platform=platform, id=channel),
            text=text,
            message_id=message_id,
            roles=frozenset({"storyteller"}) if st else frozenset(),
        )
        return await self.gateway.services.router.handle(message)

    async def stlog(self) -> list[StlogLine]:
        """The whole Storyteller log as ``st log`` reads it (rolls and other entries), oldest first."""
        async with self.gateway.services.vault.transaction() as session:
            return await stlog_entries(session, limit=1_000_000)

    async def one(self, text: str, as_: str = "alice", **kw: Any) -> Reply:
        replies = await self.say(text, as_, **kw)
        assert len(replies) == 1, replies
        return replies[0]


def _postgres_database(base_url: str) -> Iterator[str]:
    """A fresh database on the test server for one test, dropped afterwards."""
    import asyncio

    name = f"gw_test_{uuid.uuid4().hex[:12]}"

    async def admin(sql: str) -> None:
        engine = create_async_engine(base_url, isolation_level="AUTOCOMMIT")
        async with engine.connect() as conn:
            await conn.execute(text(sql))
        await engine.dispose()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield base_url.rsplit("/", 1)[0] + "/" + name
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def vault_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A vault URL on SQLite, and on PostgreSQL when GATEWAY_TEST_POSTGRES_URL is set."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
        return
    if not POSTGRES_URL:
        pytest.skip("GATEWAY_TEST_POSTGRES_URL is not set")
    yield from _postgres_database(POSTGRES_URL)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"


def make_settings(url: str, **sections: Any) -> Settings:
    return Settings(vault={"url": url}, **sections)


async def start_chat(url: str, **sections: Any) -> Chat:
    clock = Clock()
    dice = ScriptedDice([])
    settings = make_settings(url, **sections)
    gateway = Gateway(settings, dice=dice, clock=clock, platforms=())
    await gateway.upgrade_vault()
    await gateway.start()
    return Chat(gateway=gateway, dice=dice, clock=clock)


@pytest.fixture
async def chat(sqlite_url: str) -> AsyncIterator[Chat]:
    """A router over a fresh SQLite vault, scripted dice and a settable clock. No adapters run."""
    chat = await start_chat(sqlite_url)
    yield chat
    await chat.gateway.stop()


@pytest.fixture
async def any_chat(vault_url: str) -> AsyncIterator[Chat]:
    """Like ``chat`` but on every configured vault engine (SQLite; PostgreSQL when available)."""
    chat = await start_chat(vault_url)
    yield chat
    await chat.gateway.stop()
