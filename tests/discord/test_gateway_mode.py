"""Gateway mode against the fake Discord Gateway (fake_gateway.py): hikari connects out over loopback,
the same interaction code answers through the callback endpoint, prefix commands run, a dropped
connection resumes with nothing lost or answered twice, 4004 stops, 4014 falls back."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from nacl.signing import SigningKey

from gateway.vault import repo
from tests.discord.conftest import CHANNEL, GUILD, USER, DiscordEnv, start_env
from tests.discord.fake_discord import Received
from tests.discord.fake_gateway import MESSAGE_CONTENT, FakeDiscordBot
from tests.discord.test_interactions import _slow_command

pytestmark = pytest.mark.asyncio
STLOG = "600000000000000006"
# Tokens of Discord's shape that the fake does not know.
WRONG = "MTAwMDAwMDAwMDAwMDAwMDAy.GwRong.not-the-token-discord-knows-0123456789"
RESET = "MTAwMDAwMDAwMDAwMDAwMDAy.GnEw11.reset-in-the-portal-0123456789abcdef"


@pytest.fixture
async def bot() -> AsyncIterator[FakeDiscordBot]:
    server = await FakeDiscordBot(heartbeat_interval=1000, portal_intents=MESSAGE_CONTENT).start()
    yield server
    await server.close()


async def gateway_env(url: str, bot: FakeDiscordBot, key: SigningKey, **discord: Any) -> DiscordEnv:
    hooks = {"sheets": bot.add_webhook("201")}
    settings: dict[str, Any] = {
        "mode": "gateway",
        "public_key": None,
        "bot_token": bot.bot_token,
        "prefix": "!",
        "channels": {"stlog": STLOG},
        "sync_commands": "global",
        **discord,
    }
    env = await start_env(url, bot, key, hooks, **settings)
    await env.until(bot.connected, 30)
    return env


@pytest.fixture
async def genv(sqlite_url: str, bot: FakeDiscordBot, key: SigningKey) -> AsyncIterator[DiscordEnv]:
    env = await gateway_env(sqlite_url, bot, key)
    yield env
    await env.client.close()


def message(
    content: str, *, ident: int, user: str = USER, channel: str = CHANNEL, guild: str | None = GUILD
) -> dict[str, Any]:
    author = {"id": user, "username": "mira", "global_name": "Mira", "bot": False}
    payload: dict[str, Any] = {
        "id": f"8{ident:017d}",
        "channel_id": channel,
        "author": author,
        "content": content,
        "type": 0,
        "mentions": [],
    }
    if guild:
        payload["guild_id"] = guild
        payload["member"] = {"nick": None, "roles": []}
    return payload


def posts_in(bot: FakeDiscordBot, channel: str = CHANNEL) -> list[Received]:
    return [p for p in bot.posts if p.channel_id == channel]


async def test_connects_identifies_and_syncs_the_commands(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    assert bot.gateway_fetches == 1  # the URL came from GET /gateway/bot on the fake's api_url
    assert len(bot.identifies) == 1
    identify = bot.identifies[0]
    assert identify["intents"] & MESSAGE_CONTENT  # prefix commands asked for message content
    assert identify["shard"] == [0, 1]
    await genv.until(lambda: bot.command_puts == 1)
    assert {c["name"] for c in bot.commands["global"]} >= {"roll"}
    await genv.until(lambda: bot.heartbeats >= 1, 10)  # heartbeats are answered; the session lives on
    status = genv.adapter.status()
    assert status["mode"] == "gateway" and status["gateway"] == "connected"
    assert status["prefix_commands"] == "on"


async def test_a_slash_command_round_trip(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    genv.dice.extend([9, 5, 10])
    interaction = genv.interaction("roll", [{"name": "pool", "type": 3, "value": "3"}])
    await bot.dispatch("INTERACTION_CREATE", interaction)
    await genv.until(lambda: interaction["id"] in bot.callbacks)
    answer = bot.callbacks[interaction["id"]].body
    # The endpoint's own answer (test_interactions.test_roll_answers_on_the_response), by callback.
    assert answer["type"] == 4
    assert answer["data"]["content"].startswith("Mira rolls 3 dice: 9 5 10 → 3 (Solid) #")
    assert bot.refused == []
    help_click = genv.interaction("help")
    await bot.dispatch("INTERACTION_CREATE", help_click)
    await genv.until(lambda: help_click["id"] in bot.callbacks)
    assert bot.callbacks[help_click["id"]].body["data"]["flags"] == 64  # ephemeral, as today


async def test_autocomplete_over_the_gateway(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    interaction = genv.interaction("help", [{"name": "topic", "type": 3, "value": "ro", "focused": True}])
    interaction["type"] = 4
    await bot.dispatch("INTERACTION_CREATE", interaction)
    await genv.until(lambda: interaction["id"] in bot.callbacks)
    assert bot.callbacks[interaction["id"]].body["type"] == 8


async def test_a_prefix_command_answers_in_the_channel(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    genv.dice.extend([8, 2])
    await bot.dispatch("MESSAGE_CREATE", message("!roll 2", ident=1))
    await genv.until(lambda: len(posts_in(bot)) == 1)
    post = posts_in(bot)[0]
    assert post.body["nonce"] and post.body["enforce_nonce"] is True
    assert post.body["content"].startswith("Mira rolls 2 dice: 8 2 → 1")
    # Chat, our own posts and other bots' are not commands.
    await bot.dispatch("MESSAGE_CREATE", message("hello all", ident=2))
    bot_post = message("!roll 2", ident=3)
    bot_post["author"]["bot"] = True
    await bot.dispatch("MESSAGE_CREATE", bot_post)
    await genv.settled()
    assert len(posts_in(bot)) == 1


async def test_a_private_reply_to_a_prefix_command_is_a_dm(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    await bot.dispatch("MESSAGE_CREATE", message("!help", ident=5))
    await genv.until(lambda: USER in bot.dms and len(posts_in(bot, bot.dms[USER])) == 1)
    post = posts_in(bot, bot.dms[USER])[0]
    assert not posts_in(bot)  # not in the channel: help is private
    assert post.body["content"].startswith("Nightcap commands:")
    assert "flags" not in post.body


async def test_resume_replays_missed_events_once(sqlite_url: str, key: SigningKey) -> None:
    # The fake also re-sends two events the bot had seen (Discord may deliver an event N times).
    bot = await FakeDiscordBot(
        heartbeat_interval=1000, portal_intents=MESSAGE_CONTENT, replay_overlap=2
    ).start()
    env = await gateway_env(sqlite_url, bot, key)
    try:
        env.dice.extend([5] * 40)
        first = env.interaction("roll", [{"name": "pool", "type": 3, "value": "1"}])
        await bot.dispatch("INTERACTION_CREATE", first)
        await env.until(lambda: first["id"] in bot.callbacks)
        await bot.dispatch("MESSAGE_CREATE", message("!roll 1", ident=10))
        await env.until(lambda: len(posts_in(bot)) == 1)
        await bot.drop()  # no close frame: the session stays resumable
        await env.until(lambda: not bot.connected(), 10)
        # Meanwhile Discord keeps events for the session.
        missed = env.interaction("roll", [{"name": "pool", "type": 3, "value": "2"}])
        await bot.dispatch("INTERACTION_CREATE", missed)
        await bot.dispatch("MESSAGE_CREATE", message("!roll 3", ident=11))
        await env.until(lambda: bool(bot.resumes), 30)
        assert bot.resumes[0]["path"] == "/resume-gateway"  # resumed where READY said, not /gateway
        assert len(bot.identifies) == 1  # a RESUME, not a new session
        await env.until(lambda: missed["id"] in bot.callbacks)
        await env.until(lambda: len(posts_in(bot)) == 2)
        await env.settled()
        assert len(posts_in(bot)) == 2  # the replayed "!roll 1" was not answered again
        assert len(bot.callbacks) == 2  # nor the replayed interaction
        assert bot.not_found == 0 and bot.refused == []
        assert env.adapter.status()["gateway_replayed"] >= 1
    finally:
        await env.client.close()
        await bot.close()


async def test_a_bad_token_stops_with_a_clear_line(
    sqlite_url: str, bot: FakeDiscordBot, key: SigningKey, caplog: pytest.LogCaptureFixture
) -> None:
    hooks = {"sheets": bot.add_webhook("201")}
    env = await start_env(sqlite_url, bot, key, hooks, mode="gateway", public_key=None, bot_token=WRONG)
    try:
        connection = env.adapter.connection
        await env.until(lambda: connection.state == "stopped" and connection.problem)
        assert "401" in connection.problem and "not retrying" in connection.problem
        assert bot.gateway_fetches == 0 and not bot.identifies
    finally:
        await env.client.close()


async def test_close_4004_stops_and_does_not_retry(
    sqlite_url: str, bot: FakeDiscordBot, key: SigningKey
) -> None:
    env = await gateway_env(sqlite_url, bot, key)
    try:
        bot.bot_token = RESET  # reset in the portal: the next IDENTIFY fails
        bot.sessions.clear()  # and no session to resume
        await bot.close_with(4000)
        connection = env.adapter.connection
        await env.until(lambda: connection.state == "stopped", 30)
        assert "4004" in (connection.problem or "") or "401" in (connection.problem or "")
        tries = len(bot.closes)
        status = env.adapter.status()
        assert status["gateway"] == "stopped" and "not retrying" in str(status["gateway_problem"])
        await env.until(lambda: True)
        assert len(bot.closes) == tries
    finally:
        await env.client.close()


async def test_4014_reconnects_without_message_content(sqlite_url: str, key: SigningKey) -> None:
    bot = await FakeDiscordBot(heartbeat_interval=1000, portal_intents=0).start()
    env = await gateway_env(sqlite_url, bot, key)
    try:
        assert 4014 in bot.closes
        assert not bot.identifies[-1]["intents"] & MESSAGE_CONTENT
        status = env.adapter.status()
        assert "4014" in str(status["prefix_commands"])
        interaction = env.interaction("help")
        await bot.dispatch("INTERACTION_CREATE", interaction)  # slash commands still work
        await env.until(lambda: interaction["id"] in bot.callbacks)
    finally:
        await env.client.close()
        await bot.close()


async def test_the_storyteller_log_is_posted_by_the_bot(genv: DiscordEnv, bot: FakeDiscordBot) -> None:
    genv.dice.extend([9, 9])
    interaction = genv.interaction("roll", [{"name": "pool", "type": 3, "value": "2"}])
    await bot.dispatch("INTERACTION_CREATE", interaction)
    await genv.until(lambda: interaction["id"] in bot.callbacks)
    await genv.until(lambda: any(p.channel_id == "600000000000000006" for p in bot.posts))
    logged = [p for p in bot.posts if p.channel_id == "600000000000000006"]
    assert logged[0].body.get("embeds") and "username" not in logged[0].body
    assert genv.adapter.can_post("stlog") and genv.adapter.can_post(f"{GUILD}/{CHANNEL}")


async def test_a_button_click_and_a_deferred_command_over_the_gateway(
    genv: DiscordEnv, bot: FakeDiscordBot
) -> None:
    genv.dice.extend([9, 5, 10, 4, 4, 4])
    first = genv.interaction("roll", [{"name": "pool", "type": 3, "value": "3"}])
    await bot.dispatch("INTERACTION_CREATE", first)
    await genv.until(lambda: first["id"] in bot.callbacks)
    rows = bot.callbacks[first["id"]].body["data"]["components"]
    offered = {b["label"]: b["custom_id"] for row in rows for b in row["components"]}
    assert offered["Roll again"] == "gw:1:roll 3"
    click = genv.interaction("")
    click["type"] = 3
    click["data"] = {"custom_id": offered["Roll again"], "component_type": 2}
    click["message"] = {"id": "9" * 18, "channel_id": click["channel_id"], "content": ""}
    await bot.dispatch("INTERACTION_CREATE", click)
    await genv.until(lambda: click["id"] in bot.callbacks)
    assert bot.callbacks[click["id"]].body["data"]["content"].startswith("Mira rolls 3 dice: 4 4 4")
    # Past reply_timeout the answer is a deferral and the replies follow up through the outbox.
    genv.gateway.plugins.registry.add_command(_slow_command(genv.adapter.config.reply_timeout + 0.3))
    slow = genv.interaction("gw", [{"name": "text", "type": 3, "value": "slow hello"}])
    await bot.dispatch("INTERACTION_CREATE", slow)
    await genv.until(lambda: slow["id"] in bot.callbacks)
    assert bot.callbacks[slow["id"]].body == {"type": 5, "data": {}}
    await genv.until(
        lambda: any(r.follow_up and r.body.get("content") == "slow done: hello" for r in bot.received)
    )
    assert bot.refused == []


async def test_bot_posts_follow_the_channel_bucket_in_order(sqlite_url: str, key: SigningKey) -> None:
    bot = await FakeDiscordBot(heartbeat_interval=1000, channel_limit=3, channel_window=0.5).start()
    env = await gateway_env(sqlite_url, bot, key, prefix=None)
    try:
        async with env.gateway.services.vault.transaction() as session:
            for i in range(8):
                await repo.enqueue(session, "discord", "stlog", {"kind": "reply", "text": f"line {i}"})
        await env.until(lambda: len(posts_in(bot, STLOG)) == 8)
        assert [p.body["content"] for p in posts_in(bot, STLOG)] == [f"line {i}" for i in range(8)]
        assert bot.rate_limited == 0  # paced by the X-RateLimit-* headers, not by 429s
        assert all("nonce" in p.body for p in posts_in(bot, STLOG))
    finally:
        await env.client.close()
        await bot.close()


async def test_the_shard_settings_reach_identify(sqlite_url: str, key: SigningKey) -> None:
    bot = await FakeDiscordBot(heartbeat_interval=1000).start()
    env = await gateway_env(sqlite_url, bot, key, prefix=None, shards=2, shard_ids=[1])
    try:
        assert [i["shard"] for i in bot.identifies] == [[1, 2]]
        assert not bot.identifies[0]["intents"] & MESSAGE_CONTENT  # no prefix: no privileged intent
    finally:
        await env.client.close()
        await bot.close()


async def test_closed_dms_are_said_in_the_channel_without_the_answer(
    genv: DiscordEnv, bot: FakeDiscordBot
) -> None:
    bot.dms_closed.add(USER)
    await bot.dispatch("MESSAGE_CREATE", message("!help", ident=6))
    await genv.until(lambda: len(posts_in(bot)) == 1)
    notice = posts_in(bot)[0].body["content"]
    assert notice.startswith("Mira: I cannot send you a direct message")
    assert "Nightcap commands" not in notice
    rows = await genv.settled()
    assert [r.status for r in rows if r.target == f"{GUILD}/{CHANNEL}"] == ["delivered"]
