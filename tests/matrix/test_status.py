"""What the Matrix adapter reports for ``gateway status``: per account, whether this process runs its
sync loop, whether it is syncing, and when a sync last went through. Against a real Synapse."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from gateway.core.dice import ScriptedDice
from tests.matrix.conftest import Running, gateway_settings, register_bot, start_gateway
from tests.matrix.synapse import Synapse


async def test_a_syncing_account_reports_itself_and_stops_reporting_when_stopped(
    synapse: Synapse, vault: str, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    running = await start_gateway(
        gateway_settings(vault, synapse, {"main": {"user_id": bot.user_id}}), ScriptedDice([])
    )
    gateways.append(running)
    main: Any = running.adapter.status()["accounts"]
    main = main["main"]
    assert (main["owned"], main["syncing"], main["rooms"], main["sync_errors"]) == (True, True, 0, 0)
    synced = datetime.fromisoformat(main["last_sync_ok"])
    assert abs(datetime.now(UTC) - synced) < timedelta(minutes=1)
    await running.stop()
    after: Any = running.adapter.status()["accounts"]
    assert (after["main"]["owned"], after["main"]["syncing"]) == (False, False)
    # When it last went through: kept, not cleared. A sync may still have finished between the first
    # reading and the stop (a busy machine), so it is that one or a later one.
    kept = datetime.fromisoformat(after["main"]["last_sync_ok"])
    assert synced <= kept < datetime.now(UTC)
