"""Fixtures for the IRC tests: real servers on free loopback ports, a gateway with the IRC adapter."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.irc.adapter import IrcAdapter
from adapters.irc.client import IrcConnection
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import migrated_vault
from tests.irc import plugin
from tests.irc.ircd import ServerProcess, free_port, miniircd, ngircd, ngircd_binary
from tests.irc.lineclient import LineClient

FAST = {
    "tls": False,
    "send_interval": 0.02,
    "send_burst": 4,
    "reconnect_min": 0.1,
    "reconnect_max": 0.4,
    "retry_delay": 0.2,
    "connect_timeout": 10,
}


class Harness:
    def __init__(self, tmp_path: Path, vault_url: str | None = None) -> None:
        self.tmp_path = tmp_path
        self.vault_url = vault_url or f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
        self.gateways: list[Gateway] = []
        self.clients: list[LineClient] = []
        self.servers: list[ServerProcess] = []
        self.dice = ScriptedDice([])

    async def miniircd(self) -> ServerProcess:
        server = miniircd(self.tmp_path, free_port())
        self.servers.append(server)
        await server.start()
        return server

    async def ngircd(self, **kw: Any) -> ServerProcess:
        if ngircd_binary() is None:
            pytest.skip("ngircd is not installed (apt-get install ngircd; .ci/apt-packages lists it)")
        server = ngircd(self.tmp_path, free_port(), **kw)
        self.servers.append(server)
        await server.start()
        return server

    async def client(self, port: int, nick: str, *channels: str) -> LineClient:
        client = LineClient(port, nick)
        self.clients.append(client)
        await client.connect()
        for channel in channels:
            await client.join(channel)
        return client

    async def gateway(
        self,
        networks: dict[str, dict[str, Any]],
        *,
        stlog: list[str] | None = None,
        wait: bool = True,
        vault_url: str | None = None,
        **sections: Any,
    ) -> Gateway:
        irc = {name: {**FAST, **net} for name, net in networks.items()}
        settings = Settings(
            vault={"url": vault_url or self.vault_url},
            http={"enabled": False},
            outbox={"poll_interval": 0.05, "base_delay": 0.05, "max_delay": 0.5},
            stlog={"targets": stlog or []},
            irc=irc,
            **sections,
        )
        gateway = Gateway(settings, dice=self.dice, platforms=("irc",), extra_plugins=[plugin])
        self.gateways.append(gateway)
        await migrated_vault(settings.vault.url)  # a copy of a migrated vault: start() only checks it
        if gateway.services.vault.dialect != "sqlite":
            await gateway.upgrade_vault()
        await gateway.start()
        if wait:
            for connection in adapter(gateway).connections.values():
                await asyncio.wait_for(connection.ready.wait(), 15)
        return gateway

    async def close(self) -> None:
        for client in self.clients:
            await client.close()
        for gateway in self.gateways:
            await gateway.stop()
        for server in self.servers:
            await server.stop()


def adapter(gateway: Gateway) -> IrcAdapter:
    found = gateway.adapters["irc"]
    assert isinstance(found, IrcAdapter)
    return found


def connection(gateway: Gateway, network: str = "test") -> IrcConnection:
    return adapter(gateway).connections[network]


async def eventually(check: Callable[[], Awaitable[bool]], timeout: float = 60.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        if loop.time() > deadline:
            raise TimeoutError("condition never became true")
        await asyncio.sleep(0.05)


@pytest.fixture
async def irc(tmp_path: Path, vault_url: str) -> AsyncIterator[Harness]:
    """On SQLite and on PostgreSQL: delivery runs different vault code on each."""
    harness = Harness(tmp_path, vault_url)
    try:
        yield harness
    finally:
        await harness.close()
