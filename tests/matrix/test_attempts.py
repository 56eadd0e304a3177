"""A send that keeps meeting a dead homeserver is a failed attempt each time: after ``[outbox]
max_attempts`` the row is dead (kept for an operator), as for every adapter."""

from __future__ import annotations

import asyncio
from typing import Any

from gateway.dice import ScriptedDice
from gateway.types import Channel, Identity, InboundMessage
from tests.matrix.conftest import MatrixUser, Running, gateway_settings, register_bot, start_gateway
from tests.matrix.synapse import Synapse
from tests.matrix.test_delivery import until


async def test_a_dead_homeserver_kills_the_row_after_max_attempts(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    st: MatrixUser = await users("st", "Storyteller")
    st_room = await st.create_room(invite=[bot.user_id])
    account = {"user_id": bot.user_id, "allowed_inviters": [st.user_id], "retry_max_delay": 0.5}
    settings = gateway_settings(vault, synapse, {"main": account}, stlog=[f"matrix:{st_room}"])
    settings.outbox.max_attempts = 2
    running = await start_gateway(settings, ScriptedDice([9, 5]))
    gateways.append(running)
    await st.wait_for(lambda: st.membership(st_room, bot.user_id) == "join", "the bot to join")

    await asyncio.to_thread(synapse.stop)
    try:
        message = InboundMessage(
            sender=Identity("console", "dorian", "Dorian"), channel=Channel("console", "main"), text="roll 2"
        )
        [reply] = await running.gateway.services.handle(message)
        assert reply.error is None

        async def dead() -> bool:
            rows = await running.outbox()
            return bool(rows) and rows[0].status == "dead"

        await until(dead, "the Storyteller-log row to die")
        [row] = await running.outbox()
        assert row.attempts == 2 and (row.last_error or "").startswith("network: ")
    finally:
        await asyncio.to_thread(synapse.start)
