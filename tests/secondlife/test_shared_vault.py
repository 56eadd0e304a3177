"""Two gateway processes on one vault (PostgreSQL in production), and restarts: start-up races,
replays to the other process and replays after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlmodel import col, delete, select

from adapters.secondlife.adapter import CURSOR_SCOPE
from gateway.vault.models import KeyValue
from tests.secondlife.conftest import World


@pytest.fixture
async def pair(vault_url: str, tmp_path: Path) -> AsyncIterator[tuple[World, World]]:
    """Two gateways sharing one vault, each on its own port."""
    first, second = World(vault_url, tmp_path), World(vault_url, tmp_path)
    await first.start()
    await second.start()
    yield first, second
    await second.close()
    await first.close()


async def _cursors(world: World) -> list[KeyValue]:
    async with world.services.vault.transaction() as session:
        found = await session.exec(select(KeyValue).where(col(KeyValue.scope) == CURSOR_SCOPE))
        return list(found.all())


async def test_two_processes_create_the_refresh_cursor_at_once(pair: tuple[World, World]) -> None:
    """D12: on a fresh vault both processes find no audit cursor; one creates it, neither fails."""
    first, second = pair
    for _ in range(5):
        async with first.services.vault.transaction() as session:
            await session.exec(delete(KeyValue).where(col(KeyValue.scope) == CURSOR_SCOPE))  # type: ignore[call-overload]
        results = await asyncio.gather(
            first.adapter._refresh_once(), second.adapter._refresh_once(), return_exceptions=True
        )
        assert results == [0, 0]
        assert len(await _cursors(first)) == 1


async def test_two_processes_register_one_route_at_once(pair: tuple[World, World]) -> None:
    """The same HUD's registration reaching both processes at once (two requests, two signatures)."""
    first, second = pair
    hud_a = first.hud("Mira Vance")
    hud_b = second.hud("Mira Vance", owner_key=hud_a.owner_key)
    hud_b.object_key = hud_a.object_key
    hud_b.sent = 100  # another nonce: another signature
    fake = await first.obj(hud_a)
    answers = await asyncio.gather(
        hud_a.register(fake.url, "player-hud"), hud_b.register(fake.url, "player-hud")
    )
    assert [a.status for a in answers] == [200, 200], [a.text for a in answers]
