"""What the IRC adapter reports for ``gateway status`` and ``/metrics``, with two gateways on one vault
and a real miniircd: the owner is connected with its nick and channels, the standby says so, and a
takeover after the owner dies counts as a failover.

``vault_url`` comes first in each signature so that its PostgreSQL database is dropped only after the
harness has stopped the gateways."""

from __future__ import annotations

import asyncio

from gateway.ops.status import gather
from tests.irc.conftest import Harness, adapter, connection
from tests.irc.test_cluster import FAILOVER, kill, two_gateways


async def test_owner_and_standby_report_their_network(vault_url: str, irc: Harness) -> None:
    server = await irc.miniircd()
    first, second = await two_gateways(irc, vault_url, server.port)
    await connection(first).ready.wait()
    owner = adapter(first).status()
    assert owner == {
        "networks": {
            "test": {
                "owned": True,
                "connected": True,
                "nick": "nightcap",
                "channels": ["#game"],
                "connections": 1,
                "last_error": None,
            }
        }
    }
    standby = adapter(second).status()["networks"]
    assert standby == {
        "test": {
            "owned": False,
            "connected": False,
            "nick": None,
            "channels": [],
            "connections": 0,
            "last_error": None,
        }
    }
    await first.heartbeat.beat()
    await second.heartbeat.beat()
    report = await gather(first.settings)
    processes = {p["id"]: p for p in report["processes"]}
    assert processes[first.heartbeat.id]["adapters"]["irc"] == owner
    assert processes[first.heartbeat.id]["leases"]["irc:test"] == {"epoch": 1}
    assert "irc:test" not in processes[second.heartbeat.id]["leases"]
    [lease] = [lease for lease in report["leases"] if lease["name"] == "irc:test"]
    assert lease["owner"] == first.heartbeat.id and lease["held"]

    # The owner dies without releasing: the standby takes over, with a failover counted.
    await kill(irc, first)
    await asyncio.wait_for(connection(second).ready.wait(), 3 * FAILOVER)
    assert adapter(second).status()["networks"]["test"]["owned"] is True  # type: ignore[index]
    assert second.services.leases.failovers["irc:test"] == 1
