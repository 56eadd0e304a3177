"""Two gateway processes on one vault with the same Matrix account: one sync loop, each command
answered once, and the standby takes the account over when the owner dies."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from gateway.core.dice import ScriptedDice
from gateway.core.settings import ClusterSection
from tests.matrix.conftest import (
    WAIT_CEILING,
    MatrixUser,
    Running,
    die_holding_leases,
    gateway_settings,
    register_bot,
    start_gateway,
    start_standby,
)
from tests.matrix.synapse import Synapse
from tests.matrix.test_delivery import replied_to, until

FAILOVER = 2.0


async def test_one_sync_loop_per_account_and_failover(
    synapse: Synapse, vault_url: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    mira: MatrixUser = await users("mira", "Mira")
    settings = gateway_settings(
        vault_url, synapse, {"main": {"user_id": bot.user_id, "allowed_inviters": [mira.user_id]}}
    ).model_copy(update={"cluster": ClusterSection(failover_seconds=FAILOVER)})
    dice = ScriptedDice([8] * 20)
    first = await start_gateway(settings, dice)
    gateways.append(first)
    second = await start_standby(settings, dice)
    gateways.append(second)

    room = await mira.create_room(invite=[bot.user_id])
    await mira.wait_for(lambda: mira.membership(room, bot.user_id) == "join", "the bot to join")
    commands = [await mira.send(room, "!roll 1") for _ in range(3)]
    await mira.wait_for(lambda: len(mira.notices(room, bot.user_id)) >= 3, "three replies")
    await asyncio.sleep(1.0)
    await mira.sync_once()
    assert replied_to(mira.notices(room, bot.user_id)) == commands  # each once
    standby = second.account()
    assert not standby.ready.is_set() and standby.stats["logins"] == 0 and standby.next_batch is None

    # The owner dies without releasing its lease; the standby syncs within failover_seconds.
    await die_holding_leases(first)
    died = time.monotonic()
    await until(lambda: "matrix:main" in (second.gateway.services.leases.held or {}), "the lease")  # type: ignore[union-attr]
    took_over = time.monotonic() - died
    await asyncio.wait_for(standby.ready.wait(), WAIT_CEILING)
    print(f"matrix lease taken over in {took_over:.3f} s, synced at {time.monotonic() - died:.3f} s")
    assert took_over <= FAILOVER
    last = await mira.send(room, "!roll 1")
    await mira.wait_for(lambda: len(mira.notices(room, bot.user_id)) >= 4, "the reply after failover")
    await asyncio.sleep(1.0)
    await mira.sync_once()
    assert replied_to(mira.notices(room, bot.user_id)) == [*commands, last]
    # Rows the standby's worker claimed while another process synced were handed back, not failed.
    rows = await second.outbox()
    assert [(r.status, r.attempts) for r in rows] == [("delivered", 1)] * len(rows)
