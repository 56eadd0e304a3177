"""Fixtures: a running gateway with the Second Life adapter on a loopback port, scripted dice."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from tests.secondlife import longreplies
from tests.secondlife.harness import SECRET, FakeObject, Hud, Running, new_key, serve

ST_KEY = "5b1e3f0a-9c2d-4e8f-a1b2-c3d4e5f60718"


def sl_settings(vault_url: str, **overrides: Any) -> Settings:
    secondlife = {
        "shared_secret": SECRET,
        "push_timeout": 1.0,
        "refresh_poll": 0.2,
        **overrides.pop("secondlife", {}),
    }
    return Settings(
        vault={"url": vault_url, "owner": f"sl:{ST_KEY}"},
        secondlife=secondlife,
        stlog={"targets": ["secondlife:st-huds"]},
        outbox={"poll_interval": 0.05, "base_delay": 0.1, "max_delay": 1.0, **overrides.pop("outbox", {})},
        **overrides,
    )


async def table_counts(world: World) -> dict[str, int]:
    """Rows in every vault table a request could write to."""
    from sqlalchemy import func
    from sqlmodel import select

    from gateway.vault import models as m

    counts = {}
    async with world.services.vault.transaction() as session:
        for model in (
            m.Person,
            m.IdentityLink,
            m.ChannelRow,
            m.RollLog,
            m.StlogEntry,
            m.OutboxRow,
            m.KeyValue,
            m.ProcessedMessage,
            m.Audit,
            m.Character,
        ):
            counts[model.__name__] = (await session.exec(select(func.count()).select_from(model))).one()
    return counts


class World:
    """A gateway on a free port plus helpers to make HUDs and in-world objects."""

    def __init__(self, vault_url: str, tmp_path: Path) -> None:
        self.vault_url = vault_url
        self.tmp_path = tmp_path
        self.dice = ScriptedDice([])
        self.running: Running | None = None
        self.objects: list[FakeObject] = []
        self.overrides: dict[str, Any] = {}

    async def start(self, **overrides: Any) -> Running:
        self.overrides = overrides or self.overrides
        settings = sl_settings(self.vault_url, **dict(self.overrides))
        gateway = Gateway(settings, dice=self.dice, platforms=("secondlife",), extra_plugins=[longreplies])
        self.running = await serve(gateway)
        return self.running

    async def restart(self) -> Running:
        assert self.running is not None
        await self.running.stop()
        return await self.start()

    @property
    def url(self) -> str:
        assert self.running is not None
        return self.running.base_url

    @property
    def adapter(self) -> Any:
        assert self.running is not None
        return self.running.adapter

    @property
    def services(self) -> Any:
        assert self.running is not None
        return self.running.services

    def hud(self, name: str, owner_key: str | None = None, **kw: Any) -> Hud:
        return Hud(self.url, owner_name=name, owner_key=owner_key or new_key(), **kw)

    def st_hud(self) -> Hud:
        return Hud(self.url, owner_name="Vera Storyteller", owner_key=ST_KEY, object_name="Nightcap ST HUD")

    async def obj(self, hud: Hud) -> FakeObject:
        """The HTTP-in side of ``hud`` (same object and owner key)."""
        fake = await FakeObject(hud.owner_key, hud.object_key).start()
        self.objects.append(fake)
        return fake

    async def close(self) -> None:
        if self.running is not None:
            await self.running.stop()
        for fake in self.objects:
            await fake.stop()


@pytest.fixture
async def world(vault_url: str, tmp_path: Path) -> AsyncIterator[World]:
    """On SQLite and on PostgreSQL: delivery and fan-out run different code on each (``Unit``)."""
    w = World(vault_url, tmp_path)
    await w.start()
    yield w
    await w.close()


@pytest.fixture
async def make_world(vault_url: str, tmp_path: Path) -> AsyncIterator[Callable[..., Awaitable[World]]]:
    """For tests that need other settings: ``w = await make_world(secondlife={...})``."""
    made: list[World] = []

    async def make(**overrides: Any) -> World:
        w = World(vault_url, tmp_path)
        await w.start(**overrides)
        made.append(w)
        return w

    yield make
    for w in made:
        await w.close()
