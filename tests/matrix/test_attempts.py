"""What a Matrix send that fails counts as: a homeserver that cannot be reached is not there (no
attempt: an outage kills no row, and the rows go out once the sync loop gets through again), while
a homeserver that answers and fails is a failed attempt towards ``[outbox] max_attempts``."""

from __future__ import annotations

import asyncio
from typing import Any

from gateway import Channel, Identity, InboundMessage, ScriptedDice
from tests.matrix.conftest import MatrixUser, Running, gateway_settings, register_bot, start_gateway
from tests.matrix.synapse import Synapse
from tests.matrix.test_delivery import until


async def test_an_unreachable_homeserver_kills_no_row(
    synapse: Synapse, vault: str, users: Any, gateways: list[Running]
) -> None:
    bot = await register_bot(synapse)
    st: MatrixUser = await users("st", "Storyteller")
    st_room = await st.create_room(invite=[bot.user_id])
    account = {"user_id": bot.user_id, "allowed_inviters": [st.user_id], "retry_max_delay": 0.5}
    settings = gateway_settings(vault, synapse, {"main": account}, stlog=[f"matrix:{st_room}"])
    settings.outbox.max_attempts = 1  # one failed attempt would kill it
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

        async def refused() -> bool:
            rows = await running.outbox()
            return bool(rows) and (rows[0].last_error or "").startswith("network: ")

        await until(refused, "a send to meet the stopped homeserver")
        await asyncio.sleep(1.5)  # three more tries at retry_max_delay
        [row] = await running.outbox()
        assert (row.status, row.attempts) == ("pending", 0)
    finally:
        await asyncio.to_thread(synapse.start)

    async def delivered() -> bool:
        rows = await running.outbox()
        return bool(rows) and rows[0].status == "delivered"

    await until(delivered, "the row to go out once the homeserver is back")
    notices = await st.wait_for(lambda: st.notices(st_room, bot.user_id), "the log line")
    assert "Dorian rolls 2 dice" in str(notices[-1])
