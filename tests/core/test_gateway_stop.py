"""``Gateway.stop`` stops every adapter and closes the vault even when one adapter's stop raises: a
failure there once left the vault's connections open past the event loop (garbage-collected later,
with errors, in another test)."""

from __future__ import annotations

import pytest

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import FakeAdapter


class BrokenStop(FakeAdapter):
    async def stop(self) -> None:
        raise RuntimeError("the socket was already gone")


class Stopped(FakeAdapter):
    def __init__(self, platform: str) -> None:
        super().__init__(platform)
        self.stopped = False

    async def stop(self) -> None:
        self.stopped = True
        await super().stop()


async def test_a_failing_adapter_stop_still_stops_the_others_and_closes_the_vault(
    vault_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, broken = Stopped("first"), BrokenStop("broken")
    gateway = Gateway(
        Settings(vault={"url": vault_url}),
        dice=ScriptedDice([]),
        extra_plugins=[first.plugin(), broken.plugin()],
        platforms=("first", "broken"),
    )
    await gateway.upgrade_vault()
    await gateway.start()
    disposed: list[bool] = []
    real_dispose = gateway.services.vault.dispose

    async def dispose() -> None:
        disposed.append(True)
        await real_dispose()

    monkeypatch.setattr(gateway.services.vault, "dispose", dispose)
    await gateway.stop()  # adapters stop in reverse order: "broken" first, and it raises
    assert first.stopped and disposed == [True]
