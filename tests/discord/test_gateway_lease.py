"""One Gateway session per bot among the gateways of a vault (lease ``discord:gateway``): with three
gateways on one vault exactly one identifies, and when it stops another takes the session over;
every command is answered once."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from nacl.signing import SigningKey

from gateway.testing import eventually
from tests.discord.conftest import CHANNEL, DiscordEnv, start_env
from tests.discord.fake_gateway import MESSAGE_CONTENT, FakeDiscordBot
from tests.discord.test_gateway_mode import message, posts_in

pytestmark = pytest.mark.asyncio
LEASE = "discord:gateway"
F = 2.0  # failover_seconds


@pytest.fixture
async def bot() -> AsyncIterator[FakeDiscordBot]:
    server = await FakeDiscordBot(heartbeat_interval=1000, portal_intents=MESSAGE_CONTENT).start()
    yield server
    await server.close()


async def start(url: str, bot: FakeDiscordBot, key: SigningKey) -> DiscordEnv:
    sections: dict[str, Any] = {"cluster": {"failover_seconds": F}}
    settings: dict[str, Any] = {
        "mode": "gateway",
        "public_key": None,
        "bot_token": bot.bot_token,
        "prefix": "!",
        "sync_commands": "off",
    }
    return await start_env(url, bot, key, {}, sections, **settings)


def owners(envs: list[DiscordEnv]) -> list[int]:
    return [i for i, env in enumerate(envs) if LEASE in env.gateway.services.leases.held]


async def test_three_gateways_one_session_and_failover(
    vault_url: str, bot: FakeDiscordBot, key: SigningKey
) -> None:
    envs = [await start(vault_url, bot, key)]
    await eventually(bot.connected, timeout=30)
    envs += [await start(vault_url, bot, key), await start(vault_url, bot, key)]
    try:
        first = envs[0]
        assert owners(envs) == [0]
        assert len(bot.identifies) == 1 and len(bot.connections) == 1
        standby = envs[1].adapter.status()["gateway"]
        assert str(standby).startswith("standby")
        first.dice.extend([6])
        await bot.dispatch("MESSAGE_CREATE", message("!roll 1", ident=1))
        await eventually(lambda: len(posts_in(bot)) == 1, timeout=30)

        await first.client.close()  # the owner stops: the lease goes, the session is closed
        await eventually(lambda: len(owners(envs[1:])) == 1, timeout=10 * F)
        await eventually(lambda: len(bot.identifies) == 2 and bot.connected(), timeout=30)
        new = envs[1 + owners(envs[1:])[0]]
        new.dice.extend([7])
        await bot.dispatch("MESSAGE_CREATE", message("!roll 1", ident=2))
        await eventually(lambda: len(posts_in(bot)) == 2, timeout=30)
        # Discord re-sends the first message to the new session (delivery is at least once): the
        # vault remembers it was answered.
        await bot.dispatch("MESSAGE_CREATE", message("!roll 1", ident=1))
        await new.settled()
        assert len(posts_in(bot)) == 2
        assert [p.channel_id for p in posts_in(bot)] == [CHANNEL, CHANNEL]
        assert sum(1 for c in bot.connections if c.session is not None) == 1
    finally:
        for env in envs[1:]:
            await env.client.close()
