"""Storyteller-log rows are written in the roll's transaction and delivered after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from sqlmodel import col, select

from gateway.core.adapter import Adapter
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.hookspecs import hookimpl
from gateway.core.registry import AdapterSpec
from gateway.core.types import Outbound
from gateway.testing import Chat, Clock, make_settings
from gateway.vault.models import OutboxRow, RollLog
from tests.nightcap.helpers import build, ok, refused


class Recorder(Adapter):
    platform = "fake"

    def __init__(self, expected: int) -> None:
        self.delivered: list[Outbound] = []
        self.expected = expected
        self.done = asyncio.Event()

    async def deliver(self, message: Outbound) -> None:
        self.delivered.append(message)
        if len(self.delivered) >= self.expected:
            self.done.set()


class RecorderPlugin:
    def __init__(self, adapter: Recorder) -> None:
        self.adapter = adapter

    @hookimpl
    def gateway_register_adapters(self, register: Callable[[AdapterSpec], None]) -> None:
        register(AdapterSpec(platform="fake", build=lambda services, section: self.adapter))


async def rows(gateway: Gateway) -> list[OutboxRow]:
    async with gateway.services.vault.transaction() as session:
        found = await session.exec(
            select(OutboxRow).where(col(OutboxRow.platform) == "fake").order_by(col(OutboxRow.id))
        )
        return list(found.all())


async def test_rows_survive_a_restart_and_are_delivered(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    settings = make_settings(url, stlog={"targets": ["fake:st-room", "fake:other"]})
    clock, dice = Clock(), ScriptedDice([])

    # First run: no adapter for "fake" is running, so its rows wait.
    first = Gateway(settings, dice=dice, clock=clock, platforms=())
    await first.upgrade_vault()
    await first.start()
    chat = Chat(gateway=first, dice=dice, clock=clock)
    await build(chat)
    before = len(await rows(first))
    dice.extend([9, 5, 10])
    roll = await ok(chat, "roll physical")
    assert roll.result is not None
    # A refused command writes nothing to the outbox.
    await refused(chat, "roll physical +1000")
    pending = (await rows(first))[before:]
    assert [(r.target, r.status, r.payload["kind"]) for r in pending] == [
        ("st-room", "pending", "stlog"),
        ("other", "pending", "stlog"),
    ]
    assert pending[0].payload["text"] == roll.text
    assert pending[0].payload["result"]["dice"] == [9, 5, 10]
    async with first.services.vault.transaction() as session:
        logged = (
            await session.exec(select(RollLog).where(col(RollLog.public_id) == roll.result["id"]))
        ).one()
    assert logged.created_at == pending[0].created_at  # one unit of work, one clock reading
    total = len(await rows(first))  # the submit and approval went to the Storyteller log too
    await first.stop()

    # Second run on the same vault, with a recording adapter for "fake": everything pending goes out.
    recorder = Recorder(expected=total)
    second = Gateway(
        settings, dice=dice, clock=clock, extra_plugins=[RecorderPlugin(recorder)], platforms=("fake",)
    )
    await second.start()
    try:
        await asyncio.wait_for(recorder.done.wait(), timeout=30)
        for _ in range(100):  # the worker marks a row delivered just after deliver() returns
            if all(r.status == "delivered" for r in await rows(second)):
                break
            await asyncio.sleep(0.05)
    finally:
        await second.stop()
    delivered = await rows(second)
    await second.services.vault.dispose()
    assert [r.status for r in delivered] == ["delivered"] * total
    texts = [m.text for m in recorder.delivered if m.target == "st-room"]
    assert texts[-1] == roll.text
    # Each target's rows arrive in the order they were written.
    for target in ("st-room", "other"):
        ids = [m.id for m in recorder.delivered if m.target == target]
        assert ids == sorted(ids)
