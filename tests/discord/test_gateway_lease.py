"""One Gateway session per bot among the gateways of a vault (lease ``discord:gateway``): with three
gateways on one vault exactly one identifies, and when it stops another takes the session over;
every command is answered once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from nacl.signing import SigningKey

from adapters.discord import texts
from adapters.discord.catch_up import DISCORD_EPOCH_MS
from gateway.core.commands import Command, CommandContext
from gateway.core.offload import Awaited
from gateway.core.types import Invocation, Reply
from gateway.testing import eventually
from tests.discord.conftest import CHANNEL, DiscordEnv, start_env
from tests.discord.fake_gateway import MESSAGE_CONTENT, FakeDiscordBot
from tests.discord.test_delivery_lease import cut_off
from tests.discord.test_gateway_mode import message, posts_in

pytestmark = pytest.mark.asyncio
LEASE = "discord:gateway"
F = 2.0  # failover_seconds


@pytest.fixture
async def bot() -> AsyncIterator[FakeDiscordBot]:
    server = await FakeDiscordBot(heartbeat_interval=1000, portal_intents=MESSAGE_CONTENT).start()
    yield server
    await server.close()


async def start(
    url: str, bot: FakeDiscordBot, key: SigningKey, more: dict[str, Any] | None = None, **discord: Any
) -> DiscordEnv:
    sections: dict[str, Any] = {"cluster": {"failover_seconds": F}, **(more or {})}
    settings: dict[str, Any] = {
        "mode": "gateway",
        "public_key": None,
        "bot_token": bot.bot_token,
        "prefix": "!",
        "sync_commands": "off",
        **discord,
    }
    return await start_env(url, bot, key, {}, sections, **settings)


def owners(envs: list[DiscordEnv], lease: str = LEASE) -> list[int]:
    return [i for i, env in enumerate(envs) if lease in env.gateway.services.leases.held]


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


def fresh(n: int) -> str:
    """A message id made now (a snowflake: milliseconds since Discord's epoch, shifted 22 bits)."""
    return str(((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) + n)


@pytest.mark.parametrize("processes", [2, 3])
async def test_a_prefix_command_the_dying_owner_never_answered_is_caught_up_once(
    vault_url: str, bot: FakeDiscordBot, key: SigningKey, processes: int
) -> None:
    """The owner receives ``!roll`` in its last seconds and dies before answering: Discord does not
    replay it to the taker's new session, so the taker reads the channel after the last command it
    knows was handled, and answers it. Nothing already answered is answered again."""
    envs = [await start(vault_url, bot, key)]
    await eventually(bot.connected, timeout=30)
    envs += [await start(vault_url, bot, key) for _ in range(processes - 1)]
    try:
        first = envs[0]
        first.dice.extend([6])
        answered = {**message("!roll 1", ident=0), "id": fresh(1)}
        await bot.dispatch("MESSAGE_CREATE", answered)
        await eventually(lambda: len(posts_in(bot)) == 1, timeout=30)
        await first.settled()

        async def dies_before_answering(_: Any) -> None:
            return None

        first.adapter.connection.on_message = dies_before_answering
        for env in envs[1:]:
            env.dice.extend([9, 9])  # whichever takes over
        missed = {**message("!roll 2", ident=0), "id": fresh(2)}
        await bot.dispatch("MESSAGE_CREATE", missed)  # to the dying owner's session only
        cut_off(first)  # and its leases run out: gone, as a killed process is
        await eventually(lambda: len(owners(envs[1:])) == 1, timeout=10 * F)
        await eventually(lambda: len(bot.identifies) == 2, timeout=30)
        taker = envs[1 + owners(envs[1:])[0]]
        await eventually(lambda: len(posts_in(bot)) == 2, timeout=30)
        await taker.settled()
        assert posts_in(bot)[1].body["content"].startswith("Mira rolls 2 dice: 9 9")
        assert bot.history_reads >= 1
        # The taker reads again after a restart of its session: nothing is answered twice.
        await taker.adapter.catch_up.run(
            taker.adapter.http,
            taker.adapter.config.api_base,
            taker.adapter._auth(),
            taker.adapter.gateway_message,
        )
        await taker.settled()
        assert len(posts_in(bot)) == 2
    finally:
        for env in envs:
            await env.client.close()


def awaits(seconds: float) -> Command:
    """``slow``, waiting outside its unit of work (as ``stats`` does), so on SQLite it holds no write
    lock and the other gateways keep their leases meanwhile."""

    async def slow(ctx: CommandContext, inv: Invocation) -> Awaited:
        async def run() -> Reply:
            await asyncio.sleep(seconds)
            return Reply(text="slow done")

        return Awaited(run)

    return Command("slow", slow, "a slow command", role="anyone")


@pytest.mark.parametrize("processes", [2, 3])
async def test_a_deferred_command_of_a_process_that_dies_is_told_by_another(
    vault_url: str, bot: FakeDiscordBot, key: SigningKey, processes: int
) -> None:
    """An interaction the owner deferred (so its token lasts 15 minutes) and then died running: its
    unit rolled back, and the survivor that delivers says so, once, instead of a "thinking" that
    never ends. (One the owner never acknowledged cannot be answered by anyone: Discord invalidates
    the token after 3 s, and a new session is not sent it again.)"""
    sections = {"gateway": {"offload_timeout": 1.0}}  # the fallback is due 1 + 2 x request_timeout on
    envs = [await start(vault_url, bot, key, sections)]
    await eventually(bot.connected, timeout=30)
    envs += [await start(vault_url, bot, key, sections) for _ in range(processes - 1)]
    try:
        first = envs[0]
        first.gateway.plugins.registry.add_command(awaits(60.0))
        slow = first.interaction("gw", [{"name": "text", "type": 3, "value": "slow hello"}])
        answer = await first.dispatch(slow)
        assert answer.body["type"] == 5  # deferred: the token is good for follow-ups
        pending = f"interaction/{slow['id']}/fallback"
        await first.until(lambda: first.rows(target=pending), timeout=30)
        for task in [*first.adapter._pending, *first.adapter._commands]:
            task.cancel()  # killed: nothing of it runs on, nothing is written
        cut_off(first)
        await eventually(lambda: len(owners(envs[1:], "discord:delivery")) == 1, timeout=10 * F)
        follow_ups = lambda: [r.body for r in bot.received if r.follow_up]  # noqa: E731
        await eventually(lambda: follow_ups(), timeout=30)
        await envs[1 + owners(envs[1:], "discord:delivery")[0]].settled()
        told = texts.t("en", "interrupted")
        assert follow_ups() == [{"content": told, "flags": 64, "allowed_mentions": {"parse": []}}]
    finally:
        for env in envs:
            await env.client.close()


async def test_processes_given_different_shards_each_hold_theirs(sqlite_url: str, key: SigningKey) -> None:
    """A lease per shard set: gateways given shard 0 and shard 1 of 2 both connect; a third given
    shard 1 again stands by for the second."""
    bot = await FakeDiscordBot(heartbeat_interval=1000, max_concurrency=2).start()
    envs: list[DiscordEnv] = []
    try:
        for shard in (0, 1, 1):
            envs.append(await start(sqlite_url, bot, key, shards=2, shard_ids=[shard]))
        await eventually(lambda: len(bot.identifies) == 2, timeout=30)
        await eventually(lambda: sum(env.adapter.gateway_owned for env in envs) == 2, timeout=30)
        assert sorted(i["shard"] for i in bot.identifies) == [[0, 2], [1, 2]]
        assert [env.adapter.gateway_owned for env in envs] == [True, True, False]
        assert envs[2].adapter.status()["gateway"] == "standby: another process holds discord:gateway:1/2"
    finally:
        for env in envs:
            await env.client.close()
        await bot.close()
