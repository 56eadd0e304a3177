"""Fixtures for the Matrix tests: one real Synapse for the whole session, users that register through
the client API, and a running gateway with the Matrix adapter.

Waiting is by condition (``await user.wait_for(...)`` syncs until it holds), with a generous ceiling
that only stops a broken run; nothing asserts how long anything took.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
from mautrix.api import HTTPAPI, Method
from mautrix.api import Path as MxPath
from mautrix.client import ClientAPI
from sqlmodel import col, select

from adapters.matrix.account import MatrixAccount
from adapters.matrix.adapter import MatrixAdapter
from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import migrated_vault
from gateway.vault.models import KeyValue, OutboxRow
from tests.matrix.synapse import Synapse

T = TypeVar("T")
WAIT_CEILING = float(os.environ.get("GATEWAY_TEST_MATRIX_WAIT", "90"))
PASSWORD = "correct horse battery staple"
_counter = itertools.count()


@pytest.fixture(scope="session")
def synapse(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Synapse]:
    server = Synapse(tmp_path_factory.mktemp("synapse"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def synapse_admin(synapse: Synapse) -> str:
    """An admin's access token (shared-secret registration), for the rate-limit override."""
    return synapse.register_admin(f"admin{uuid.uuid4().hex[:8]}", PASSWORD)


def unique(name: str) -> str:
    return f"{name}{next(_counter)}x{uuid.uuid4().hex[:6]}"


@dataclass
class MatrixUser:
    """A plain Matrix client for the test side: registers, talks, and syncs into ``rooms``."""

    client: ClientAPI
    user_id: str
    access_token: str
    session: aiohttp.ClientSession
    since: str | None = None
    rooms: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    invites: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    async def register(cls, url: str, localpart: str, display_name: str | None = None) -> MatrixUser:
        """Registration through the client API (a dummy auth stage: no verification)."""
        session = aiohttp.ClientSession()
        api = HTTPAPI(base_url=url, client_session=session)
        body: dict[str, Any] = {
            "username": localpart,
            "password": PASSWORD,
            "initial_device_display_name": "t",
        }
        async with session.post(f"{url}/_matrix/client/v3/register", json=body) as resp:
            flows = await resp.json()
        assert resp.status == 401, flows
        body["auth"] = {"type": "m.login.dummy", "session": flows["session"]}
        async with session.post(f"{url}/_matrix/client/v3/register", json=body) as resp:
            data = await resp.json()
        assert resp.status == 200, data
        api.token = data["access_token"]
        user = cls(ClientAPI(data["user_id"], api=api), data["user_id"], data["access_token"], session)
        if display_name:
            await user.client.set_displayname(display_name, check_current=False)
        return user

    @classmethod
    async def with_token(cls, url: str, user_id: str, token: str) -> MatrixUser:
        session = aiohttp.ClientSession()
        api = HTTPAPI(base_url=url, token=token, client_session=session)
        return cls(ClientAPI(user_id, api=api), user_id, token, session)

    async def close(self) -> None:
        await self.session.close()

    async def create_room(self, invite: list[str] = ()) -> str:  # type: ignore[assignment]
        return str(await self.client.create_room(invitees=list(invite)))

    async def send(self, room: str, body: str, msgtype: str = "m.text") -> str:
        content = {"msgtype": msgtype, "body": body}
        return str(await self.client.send_message_event(room, "m.room.message", content))

    async def sync_once(self, timeout_ms: int = 1000) -> None:
        params = {"timeout": str(timeout_ms)}
        if self.since:
            params["since"] = self.since
        else:
            params["filter"] = '{"room":{"timeline":{"limit":100}}}'
        data = await self.client.api.request(Method.GET, MxPath.v3.sync, query_params=params)
        self.since = data["next_batch"]
        rooms = data.get("rooms") or {}
        for room_id, room in (rooms.get("join") or {}).items():
            self.rooms.setdefault(room_id, []).extend((room.get("timeline") or {}).get("events") or [])
        for room_id, room in (rooms.get("leave") or {}).items():
            self.rooms.setdefault(room_id, []).extend((room.get("timeline") or {}).get("events") or [])
        for room_id, room in (rooms.get("invite") or {}).items():
            self.invites[room_id] = room

    async def wait_for(self, check: Callable[[], T | None], what: str = "condition") -> T:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_CEILING
        while True:
            found = check()
            if found:
                return found
            if loop.time() > deadline:
                raise AssertionError(f"{self.user_id}: gave up waiting for {what}")
            try:
                await self.sync_once()
            except Exception:  # the homeserver may be restarting; keep waiting
                await asyncio.sleep(0.2)

    def notices(self, room: str, sender: str | None = None) -> list[dict[str, Any]]:
        return [
            e
            for e in self.rooms.get(room, [])
            if e.get("type") == "m.room.message"
            and (e.get("content") or {}).get("msgtype") == "m.notice"
            and (sender is None or e.get("sender") == sender)
        ]

    def membership(self, room: str, user: str) -> str | None:
        found = None
        for e in self.rooms.get(room, []):
            if e.get("type") == "m.room.member" and e.get("state_key") == user:
                found = (e.get("content") or {}).get("membership")
        return found


@pytest.fixture
async def users(synapse: Synapse) -> AsyncIterator[Callable[..., Any]]:
    made: list[MatrixUser] = []

    async def make(name: str, display_name: str | None = None) -> MatrixUser:
        user = await MatrixUser.register(synapse.url, unique(name), display_name)
        made.append(user)
        return user

    yield make
    for user in made:
        await user.close()


@dataclass
class Bot:
    localpart: str
    user_id: str


async def register_bot(synapse: Synapse) -> Bot:
    """A bot account, registered through the client API without logging in (no device): the gateway
    logs in itself with the password."""
    localpart = unique("bot")
    body: dict[str, Any] = {"username": localpart, "password": PASSWORD, "inhibit_login": True}
    async with aiohttp.ClientSession() as session:
        data = await register_account(session, synapse.url, body)
    assert "access_token" not in data
    return Bot(localpart, data["user_id"])


async def register_account(session: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> dict[str, Any]:
    """``POST /register`` through the dummy auth stage (no verification); the response."""
    endpoint = f"{url}/_matrix/client/v3/register"
    async with session.post(endpoint, json=body) as resp:
        flows = await resp.json()
    async with session.post(
        endpoint, json={**body, "auth": {"type": "m.login.dummy", "session": flows["session"]}}
    ) as resp:
        data = await resp.json()
    assert resp.status == 200, data
    return dict(data)


def gateway_settings(
    vault_url: str,
    synapse: Synapse,
    accounts: dict[str, dict[str, Any]],
    *,
    stlog: list[str] = (),  # type: ignore[assignment]
    options: dict[str, Any] | None = None,
) -> Settings:
    """``options``: plain keys of ``[matrix]`` (``encryption``), beside the account tables."""
    matrix: dict[str, Any] = {
        name: {"homeserver": synapse.url, "password": PASSWORD, "sync_timeout": 10, **account}
        for name, account in accounts.items()
    }
    matrix.update(options or {})
    return Settings(
        vault={"url": vault_url},
        matrix=matrix,
        stlog={"targets": list(stlog)},
        outbox={"poll_interval": 0.2, "base_delay": 0.5},
    )


@dataclass
class Running:
    gateway: Gateway
    dice: ScriptedDice

    @property
    def adapter(self) -> MatrixAdapter:
        adapter = self.gateway.adapters["matrix"]
        assert isinstance(adapter, MatrixAdapter)
        return adapter

    def account(self, name: str = "main") -> MatrixAccount:
        return self.adapter.accounts[name]

    async def stop(self) -> None:
        await self.gateway.stop()

    async def outbox(self) -> list[OutboxRow]:
        async with self.gateway.services.vault.transaction() as session:
            rows = await session.exec(
                select(OutboxRow).where(col(OutboxRow.platform) == "matrix").order_by(col(OutboxRow.id))
            )
            return list(rows.all())

    async def kv(self, scope: str, key: str) -> dict[str, Any] | None:
        async with self.gateway.services.vault.transaction() as session:
            row = await session.get(KeyValue, (scope, key))
            return dict(row.value) if row else None


async def start_gateway(settings: Settings, dice: ScriptedDice) -> Running:
    gateway = Gateway(settings, dice=dice, platforms=("matrix",))
    await migrated_vault(settings.vault.url)  # a copy of a migrated vault: Alembic only checks it
    await gateway.upgrade_vault()  # start() upgrades SQLite itself, PostgreSQL only on request
    await gateway.start()
    running = Running(gateway, dice)
    for account in running.adapter.accounts.values():
        await asyncio.wait_for(account.ready.wait(), WAIT_CEILING)
    return running


@pytest.fixture
def vault(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"


@pytest.fixture
async def gateways() -> AsyncIterator[list[Running]]:
    """Gateways a test started; stopped at the end whatever happened."""
    started: list[Running] = []
    yield started
    for running in started:
        if running.gateway.services.state.get("ready"):
            await running.stop()


async def start_standby(settings: Settings, dice: ScriptedDice) -> Running:
    """A second gateway process on the same vault: it waits for the accounts' leases, so it is not
    ready (``start_gateway`` would wait for that)."""
    gateway = Gateway(settings, dice=dice, platforms=("matrix",))
    await gateway.start()
    return Running(gateway, dice)


async def die_holding_leases(running: Running) -> None:
    """Stop a gateway as a crash would: its leases are not released, so another process takes them
    over only after ``[cluster] failover_seconds``."""
    leases = running.gateway.services.leases
    assert leases is not None

    async def no_release(lease: object) -> None:
        return None

    leases.release = no_release  # type: ignore[method-assign]
    await running.stop()
