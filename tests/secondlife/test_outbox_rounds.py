"""The outbox worker after a round of Storyteller-log fan-outs: no claim that would find nothing."""

from __future__ import annotations

from collections.abc import Iterable

from adapters.secondlife.registry import PLATFORM
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.delivery import queue
from tests.secondlife.conftest import sl_settings
from tests.secondlife.harness import new_key


async def _queue(gateway: Gateway, target: str, count: int) -> None:
    async with gateway.services.vault.unit() as unit:
        for i in range(count):
            payload = {"kind": "stlog", "text": f"line {i}"}
            await queue.enqueue(unit, PLATFORM, target, payload, now=gateway.services.clock())


async def test_a_round_the_fan_out_settled_waits_for_a_wake_unless_rows_are_left(vault_url: str) -> None:
    gateway = Gateway(sl_settings(vault_url), dice=ScriptedDice([]), platforms=(PLATFORM,))
    await gateway.upgrade_vault()
    outbox = gateway.services.outbox
    outbox.adapters = gateway.adapters  # the rounds by hand, no worker
    woken: list[set[str]] = []

    def record(platforms: Iterable[str] | None) -> None:
        woken.append(set(platforms or ()))

    unsubscribe = gateway.services.vault.events.on_queued(record)
    try:
        await _queue(gateway, "st-huds", 3)
        woken.clear()
        # One fan-out took the three rows (no Storyteller HUD: no copies): nothing is left to claim.
        assert await outbox.run_once(PLATFORM) is False
        assert woken == []
        assert (await queue.status(gateway.services.vault, PLATFORM))["st-huds"].pending == 0

        # A fan-out that leaves rows behind its batch wakes the worker for them.
        await _queue(gateway, "st-huds", queue.FANOUT_BATCH + 1)
        woken.clear()
        assert await outbox.run_once(PLATFORM) is False
        assert {PLATFORM} in woken
        assert (await queue.status(gateway.services.vault, PLATFORM))["st-huds"].pending == 1
        assert await outbox.run_once(PLATFORM) is False
        assert (await queue.status(gateway.services.vault, PLATFORM))["st-huds"].pending == 0

        # A row the adapter did not settle itself (its HUD is not there yet): the next round at once.
        await _queue(gateway, f"player-hud/{new_key()}", 1)
        assert await outbox.run_once(PLATFORM) is True
    finally:
        unsubscribe()
        await gateway.services.vault.dispose()
