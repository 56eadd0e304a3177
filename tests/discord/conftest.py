"""Fixtures for the Discord adapter: a fake Discord API, a real Ed25519 key pair, and a running gateway
whose HTTP app answers signed interactions and whose outbox delivers to the fake.

A module marked ``both_modes`` runs each test that drives interactions twice, by the ``mode`` it gets:
``endpoint`` (``[discord] mode = "interactions"``: the interaction is signed and POSTed to
``/discord/interactions``, the answer is the HTTP response) and ``gateway`` (the bot connects to the
fake Gateway with hikari; the same interaction is an INTERACTION_CREATE dispatch and the answer is
what the adapter posts to the fake's callback endpoint). ``env.post`` and ``env.command`` hide which,
so one test checks both; a test about the endpoint itself (signatures, a raw body) is marked
``endpoint_only``. The Gateway side runs on SQLite only: what differs between the modes is the
transport, not the vault.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
import structlog
from aiohttp.test_utils import TestClient, TestServer
from nacl.signing import SigningKey
from sqlmodel import col, select

from gateway.core.app import Gateway, build_app
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import migrated_vault
from gateway.vault.models import OutboxRow
from tests.discord import kit
from tests.discord.fake_discord import FakeDiscord, FakeWebhook
from tests.discord.fake_gateway import MESSAGE_CONTENT, FakeDiscordBot

GUILD, CHANNEL, USER = "300000000000000003", "400000000000000004", "500000000000000005"
MODES = {"endpoint": "interactions", "gateway": "gateway"}  # test id -> [discord] mode
ANSWER_WITHIN = 15.0  # seconds a Gateway-mode test waits for the adapter's callback


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "both_modes: run in the endpoint and the Gateway mode (fixture mode)")
    config.addinivalue_line("markers", "endpoint_only: in a both_modes module, the endpoint mode only")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    marked = metafunc.definition.get_closest_marker
    if "mode" in metafunc.fixturenames and marked("both_modes") and not marked("endpoint_only"):
        metafunc.parametrize("mode", list(MODES.values()), ids=list(MODES))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The Gateway mode on SQLite only (see the module's docstring)."""
    dropped = [
        item
        for item in items
        if (spec := getattr(item, "callspec", None)) is not None
        and spec.params.get("mode") == "gateway"
        and spec.params.get("vault_url") == "postgresql"
    ]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]


@dataclass
class Answered:
    """The answer the adapter posted to the callback endpoint, read as the endpoint's HTTP response
    would be: 202 with no body when it carried a file (the endpoint's own answer then), else 200."""

    status: int
    body: dict[str, Any]

    async def json(self) -> dict[str, Any]:
        return self.body

    async def text(self) -> str:
        return json.dumps(self.body)

    async def read(self) -> bytes:
        return b"" if self.status == 202 else json.dumps(self.body).encode()


@dataclass
class DiscordEnv:
    gateway: Gateway
    client: TestClient
    fake: FakeDiscord
    key: SigningKey
    dice: ScriptedDice
    hooks: dict[str, FakeWebhook]
    counter: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def adapter(self) -> Any:
        return self.gateway.adapters["discord"]

    @property
    def over_gateway(self) -> bool:
        return self.adapter.connection is not None

    def sign(self, body: bytes, timestamp: str | None = None) -> dict[str, str]:
        timestamp = timestamp or str(int(time.time()))
        signature = self.key.sign(timestamp.encode() + body).signature.hex()
        return {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": timestamp}

    async def post(self, body: bytes, headers: dict[str, str]) -> Any:
        """An interaction as Discord sends it in this env's mode; the answer as an HTTP response."""
        if self.over_gateway:
            return await self.dispatch(json.loads(body))
        return await self.client.post(
            "/discord/interactions", data=body, headers={**headers, "Content-Type": "application/json"}
        )

    async def dispatch(self, interaction: dict[str, Any]) -> Answered:
        """INTERACTION_CREATE through the fake Gateway; the answer the adapter posted for it (a
        refused callback fails here with the fake's reasons)."""
        bot = self.fake
        assert isinstance(bot, FakeDiscordBot)
        await self.until(bot.connected, ANSWER_WITHIN)
        refused = len(bot.refused)
        await bot.dispatch("INTERACTION_CREATE", interaction)
        await self.until(
            lambda: interaction["id"] in bot.callbacks or len(bot.refused) > refused, ANSWER_WITHIN
        )
        assert len(bot.refused) == refused, bot.refused[refused:]
        answer = bot.callbacks[interaction["id"]]
        return Answered(202 if answer.files else 200, answer.body)

    def interaction(
        self,
        name: str,
        options: list[dict[str, Any]] | None = None,
        *,
        user: str = USER,
        username: str = "mira",
        guild: str | None = GUILD,
        channel: str = CHANNEL,
    ) -> dict[str, Any]:
        self.counter += 1
        token = f"itoken-{self.counter}-{'x' * 40}"
        self.fake.add_interaction(token, channel)
        payload: dict[str, Any] = {
            "id": f"7{self.counter:017d}",
            "application_id": self.fake.application_id,
            "type": 2,
            "token": token,
            "version": 1,
            "channel_id": channel,
            "data": {"id": "1", "name": name, "type": 1, "options": options or []},
        }
        user_obj = {"id": user, "username": username, "global_name": username.title()}
        if guild:
            payload["guild_id"] = guild
            payload["member"] = {"user": user_obj, "nick": None}
        else:
            payload["user"] = user_obj
        return payload

    async def command(
        self, name: str, options: list[dict[str, Any]] | None = None, **kw: Any
    ) -> dict[str, Any]:
        body = json.dumps(self.interaction(name, options, **kw)).encode()
        response = await self.post(body, self.sign(body))
        assert response.status == 200, await response.text()
        return await response.json()

    async def rows(self, **where: Any) -> list[OutboxRow]:
        query = select(OutboxRow).order_by(col(OutboxRow.id))
        for key, value in where.items():
            query = query.where(getattr(OutboxRow, key) == value)
        async with self.gateway.services.vault.transaction() as session:
            return list((await session.exec(query)).all())

    async def until(self, check: Callable[[], Any], timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if asyncio.iscoroutine(result):
                result = await result
            if result:
                return
            if time.monotonic() > deadline:
                raise AssertionError("condition not reached in time")
            await asyncio.sleep(0.05)

    async def settled(self, platform: str = "discord", timeout: float = 60.0) -> list[OutboxRow]:
        """Wait until no row of ``platform`` is pending; return them all."""

        async def done() -> bool:
            return not await self.rows(platform=platform, status="pending")

        await self.until(done, timeout)
        return await self.rows(platform=platform)


def discord_settings(
    url: str,
    fake: FakeDiscord,
    key: SigningKey,
    hooks: dict[str, FakeWebhook],
    sections: dict[str, Any] | None = None,
    **discord: Any,
) -> Settings:
    section = {
        "application_id": fake.application_id,
        "public_key": key.verify_key.encode().hex(),
        "api_base": fake.base_url,
        "webhooks": {name: fake.webhook_url(h) for name, h in hooks.items()},
        "request_timeout": 2.0,
        "reset_margin": 0.002,
        **discord,
    }
    base: dict[str, Any] = {
        "vault": {"url": url},
        "discord": section,
        "stlog": {"targets": ["discord:stlog"]},
        "outbox": {"poll_interval": 0.05, "base_delay": 0.05, "max_delay": 0.2, "max_attempts": 6},
    }
    for name, table in (sections or {}).items():
        base[name] = {**base.get(name, {}), **table}
    return Settings(**base)


async def start_env(
    url: str,
    fake: FakeDiscord,
    key: SigningKey,
    hooks: dict[str, FakeWebhook],
    sections: dict[str, Any] | None = None,
    extra_plugins: Sequence[object] = (),
    **discord: Any,
) -> DiscordEnv:
    dice = ScriptedDice([])
    if discord.get("mode") == "gateway":  # the bot connects out: no public key, the fake's bot token
        discord = {"public_key": None, "bot_token": fake.bot_token, "sync_commands": "off", **discord}
    settings = discord_settings(url, fake, key, hooks, sections, **discord)
    # The kit's typed declarations give /roll, /odds, /st approve ... their options (see kit.py).
    plugins = [kit, *extra_plugins]
    gateway = Gateway(settings, dice=dice, platforms=("discord",), extra_plugins=plugins)
    await migrated_vault(url)  # a copy of a migrated vault: Alembic only checks it
    await gateway.upgrade_vault()
    client = TestClient(TestServer(build_app(gateway)))
    await client.start_server()
    return DiscordEnv(gateway=gateway, client=client, fake=fake, key=key, dice=dice, hooks=hooks)


def logging_now() -> tuple[dict[str, Any], list[logging.Handler]]:
    return structlog.get_config(), list(logging.getLogger().handlers)


@pytest.fixture(autouse=True)
def _logging_handed_back() -> Iterator[None]:
    """A test that runs the CLI in-process (``gateway.ops.cli.main`` configures logging to the captured
    stderr) must hand logging back: left pointing at a closed stream, every later log line raises,
    an outbox worker or an adapter's stop dies on it and the next tests' vault connections leak
    past their event loop. Fails the test that left it so, and puts logging back."""
    before = logging_now()
    yield
    after = logging_now()
    if after != before:
        structlog.configure(**before[0])
        logging.getLogger().handlers[:] = before[1]
        pytest.fail("this test left logging configured to its own captured output")


@pytest.fixture
def mode() -> str:
    """``[discord] mode`` of the env; both in a ``both_modes`` module (``pytest_generate_tests``)."""
    return "interactions"


@pytest.fixture
async def fake(mode: str) -> AsyncIterator[FakeDiscord]:
    """The fake Discord API; with its Gateway in the Gateway mode."""
    server: FakeDiscord = (
        FakeDiscordBot(portal_intents=MESSAGE_CONTENT) if mode == "gateway" else FakeDiscord()
    )
    await server.start()
    yield server
    await server.close()


@pytest.fixture
def key() -> SigningKey:
    return SigningKey.generate()


@pytest.fixture
async def env(vault_url: str, fake: FakeDiscord, key: SigningKey, mode: str) -> AsyncIterator[DiscordEnv]:
    """On SQLite and on PostgreSQL: delivery runs different vault code on each."""
    hooks = {"stlog": fake.add_webhook("200"), "sheets": fake.add_webhook("201")}
    discord_env = await start_env(vault_url, fake, key, hooks, mode=mode)
    yield discord_env
    await discord_env.client.close()
