"""The Interactions Endpoint: signatures, PING, slash commands, ephemeral replies, deferral."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from nacl.signing import SigningKey
from sqlmodel import select

from gateway.core.commands import Command, CommandContext
from gateway.core.types import Invocation, Reply
from gateway.vault import Vault
from gateway.vault.models import ChannelRow, IdentityLink, OutboxRow, RollLog
from tests.discord.conftest import CHANNEL, GUILD, USER, DiscordEnv

pytestmark = pytest.mark.both_modes

EPHEMERAL = 64


# --------------------------------------------------------------------------- signatures


@pytest.mark.endpoint_only
async def test_ping_answers_pong(env: DiscordEnv) -> None:
    body = b'{"type":1}'
    response = await env.post(body, env.sign(body))
    assert response.status == 200
    assert response.content_type == "application/json"
    assert await response.json() == {"type": 1}


@pytest.mark.endpoint_only
async def test_bad_signature_is_401(env: DiscordEnv) -> None:
    body = b'{"type":1}'
    other = SigningKey.generate()
    timestamp = str(int(time.time()))
    headers = {
        "X-Signature-Ed25519": other.sign(timestamp.encode() + body).signature.hex(),
        "X-Signature-Timestamp": timestamp,
    }
    response = await env.post(body, headers)
    assert response.status == 401


@pytest.mark.endpoint_only
async def test_tampered_body_is_401(env: DiscordEnv) -> None:
    body = json.dumps(env.interaction("roll", [{"name": "pool", "type": 3, "value": "3"}])).encode()
    headers = env.sign(body)
    tampered = body.replace(b'"value": "3"', b'"value": "9"')
    assert tampered != body
    response = await env.post(tampered, headers)
    assert response.status == 401
    async with env.gateway.services.vault.transaction() as session:
        assert (await session.exec(select(RollLog))).all() == []


@pytest.mark.endpoint_only
async def test_stale_and_malformed_timestamps_are_401(env: DiscordEnv) -> None:
    body = b'{"type":1}'
    now = int(time.time())
    for timestamp in (str(now - 3600), str(now + 3600), "soon", "", "12.5"):
        headers = env.sign(body, timestamp) if timestamp else {"X-Signature-Ed25519": "00" * 64}
        response = await env.post(body, headers)
        assert response.status == 401, timestamp
    # The signature covers the timestamp: a fresh timestamp with an old signature fails too.
    old = env.sign(body, str(now - 10))
    old["X-Signature-Timestamp"] = str(now)
    assert (await env.post(body, old)).status == 401


@pytest.mark.endpoint_only
async def test_missing_headers_and_junk_signature_are_401(env: DiscordEnv) -> None:
    body = b'{"type":1}'
    assert (await env.post(body, {})).status == 401
    headers = env.sign(body)
    headers["X-Signature-Ed25519"] = "zz" * 64
    assert (await env.post(body, headers)).status == 401
    headers["X-Signature-Ed25519"] = headers["X-Signature-Ed25519"][:10]
    assert (await env.post(body, headers)).status == 401


# --------------------------------------------------------------------------- commands


async def test_roll_answers_on_the_response(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    answer = await env.command("roll", [{"name": "pool", "type": 3, "value": "3"}])
    assert answer["type"] == 4
    data = answer["data"]
    assert "flags" not in data
    assert data["allowed_mentions"] == {"parse": []}
    async with env.gateway.services.vault.transaction() as session:
        roll = (await session.exec(select(RollLog))).one()
        identity = await session.get(IdentityLink, f"discord:{USER}")
        channel = await session.get(ChannelRow, f"discord:{GUILD}/{CHANNEL}")
    assert data["content"] == f"Mira rolls 3 dice: 9 5 10 → 3 (Solid) #{roll.public_id}"
    assert roll.identity_key == f"discord:{USER}"
    assert roll.channel_key == f"discord:{GUILD}/{CHANNEL}"
    assert identity is not None and identity.display_name == "Mira"
    assert channel is not None


async def test_roll_free_text_pool_reaches_the_parser(env: DiscordEnv) -> None:
    env.dice.extend([8, 8, 1, 3, 7])
    answer = await env.command("roll", [{"name": "pool", "type": 3, "value": "3 +1 vs 1"}])
    content = answer["data"]["content"]
    assert content.startswith(
        "Mira rolls 3+1 = 4 dice: 8 8 1 3 → 1 (Marginal) vs NPC 1 die: 7 → 1 (Marginal)"
    )
    assert "Deadlock" in content


async def test_gw_runs_any_command_line(env: DiscordEnv) -> None:
    env.dice.extend([10])
    answer = await env.command("gw", [{"name": "text", "type": 3, "value": "roll 1"}])
    assert answer["data"]["content"].startswith("Mira rolls 1 die: 10 → 2 (Solid)")


async def test_private_replies_and_errors_are_ephemeral(env: DiscordEnv) -> None:
    help_answer = await env.command("help")
    assert help_answer["data"]["flags"] == EPHEMERAL
    assert help_answer["data"]["content"].startswith("Nightcap commands:")
    error = await env.command("roll", [{"name": "pool", "type": 3, "value": "+2"}])
    assert error["data"]["flags"] == EPHEMERAL
    assert error["data"]["content"].startswith("A roll starts with a pool")
    env.dice.extend([9])
    secret = await env.command(
        "roll", [{"name": "pool", "type": 3, "value": "1"}, {"name": "secret", "type": 5, "value": True}]
    )
    assert secret["data"]["flags"] == EPHEMERAL
    assert "9 → 1 (Marginal)" in secret["data"]["content"]


async def test_direct_message_identity_and_channel(env: DiscordEnv) -> None:
    env.dice.extend([2])
    answer = await env.command("roll", [{"name": "pool", "type": 3, "value": "1"}], guild=None, channel="42")
    assert answer["data"]["content"].startswith("Mira rolls 1 die: 2 → 0 (Failure)")
    async with env.gateway.services.vault.transaction() as session:
        roll = (await session.exec(select(RollLog))).one()
    assert roll.channel_key == "discord:@me/42"
    assert roll.identity_key == f"discord:{USER}"


async def test_an_unknown_slash_command_says_to_register(env: DiscordEnv) -> None:
    answer = await env.command("frobnicate")
    assert answer["data"]["flags"] == EPHEMERAL
    assert "gateway discord register" in answer["data"]["content"]


@pytest.mark.endpoint_only
async def test_a_bare_autocomplete_and_a_body_that_is_not_json(env: DiscordEnv) -> None:
    body = json.dumps({"type": 4, "id": "1", "data": {"name": "roll"}}).encode()
    response = await env.post(body, env.sign(body))
    assert await response.json() == {"type": 8, "data": {"choices": []}}
    body = b"not json"
    response = await env.post(body, env.sign(body))
    assert response.status == 400


@pytest.mark.endpoint_only
async def test_the_same_interaction_twice_runs_once(env: DiscordEnv) -> None:
    env.dice.extend([9, 9])
    payload = env.interaction("roll", [{"name": "pool", "type": 3, "value": "1"}])
    body = json.dumps(payload).encode()
    first = await (await env.post(body, env.sign(body))).json()
    second = await (await env.post(body, env.sign(body))).json()
    assert first["data"]["content"].startswith("Mira rolls 1 die: 9")
    assert second["data"] == {
        "content": "Already handled.",
        "flags": EPHEMERAL,
        "allowed_mentions": {"parse": []},
    }
    async with env.gateway.services.vault.transaction() as session:
        assert len((await session.exec(select(RollLog))).all()) == 1


async def test_mentions_and_markdown_in_names_are_defused(env: DiscordEnv) -> None:
    env.dice.extend([7])
    answer = await env.command(
        "roll", [{"name": "pool", "type": 3, "value": "1"}], username="@everyone **x**"
    )
    content = answer["data"]["content"]
    assert "@everyone" not in content
    assert "@\u200beveryone \\*\\*x\\*\\*" in content.lower()
    assert answer["data"]["allowed_mentions"] == {"parse": []}


# --------------------------------------------------------------------------- the Storyteller log


async def test_a_roll_reaches_the_stlog_webhook_as_an_embed(env: DiscordEnv) -> None:
    env.dice.extend([9, 5, 10])
    await env.command("roll", [{"name": "pool", "type": 3, "value": "3"}])
    rows = await env.settled()
    assert [r.status for r in rows] == ["delivered"]
    [body] = env.fake.bodies(env.hooks["stlog"].id)
    assert body["allowed_mentions"] == {"parse": []}
    assert body["username"] == "Nightcap"
    [embed] = body["embeds"]
    async with env.gateway.services.vault.transaction() as session:
        roll = (await session.exec(select(RollLog))).one()
    assert embed["author"] == {"name": "Mira"}
    assert embed["title"] == "Solid · total 3"
    assert embed["description"] == "3 dice: `9 5 10` → **3** (Solid)"
    # The channel as a link (issue 14), not raw ids.
    assert embed["footer"] == {"text": f"Discord · #{roll.public_id}"}
    assert embed["url"] == f"https://discord.com/channels/{GUILD}/{CHANNEL}"


# --------------------------------------------------------------------------- deferral


async def test_a_slow_command_is_deferred_then_followed_up(env: DiscordEnv) -> None:
    env.gateway.plugins.registry.add_command(_slow_command(env.adapter.config.reply_timeout + 0.3))
    public = env.interaction("gw", [{"name": "text", "type": 3, "value": "slow hello world"}])
    private = env.interaction("gw", [{"name": "text", "type": 3, "value": "slow secret"}])
    bodies = [json.dumps(p).encode() for p in (public, private)]
    started = time.monotonic()
    answers = await asyncio.gather(*(env.post(b, env.sign(b)) for b in bodies))
    assert time.monotonic() - started < 3.0
    assert [await a.json() for a in answers] == [
        {"type": 5, "data": {}},
        {"type": 5, "data": {"flags": EPHEMERAL}},
    ]
    assert env.fake.bodies() == []
    await env.until(lambda: len([r for r in env.fake.received if r.follow_up]) == 4, timeout=15)
    assert all(r.webhook_id == env.fake.application_id for r in env.fake.received)
    rows = [r for r in await env.settled() if r.target == f"interaction/{public['id']}"]
    assert [r.status for r in rows] == ["delivered", "delivered"]
    assert [r.payload["text"] for r in rows] == ["slow done: hello world", "psst"]
    followups = [r.body for r in env.fake.received]
    assert {"content": "slow done: hello world", "allowed_mentions": {"parse": []}} in followups
    assert {"content": "slow done: secret", "allowed_mentions": {"parse": []}} in followups
    assert followups.count({"content": "psst", "flags": EPHEMERAL, "allowed_mentions": {"parse": []}}) == 2


def _slow_command(seconds: float) -> Command:
    async def slow(ctx: CommandContext, inv: Invocation) -> list[Reply]:
        await asyncio.sleep(seconds)
        return [Reply(text=f"slow done: {' '.join(inv.words)}"), Reply(text="psst", private=True)]

    return Command("slow", slow, "a slow command", role="anyone")


async def test_stop_leaves_no_command_running_and_no_connection_checked_out(env: DiscordEnv) -> None:
    """A command still running when the gateway stops (past the grace) is cancelled and awaited
    before the vault is disposed: its unit rolls back and gives its connection back, no task of the
    adapter outlives the loop, and the reader is told it did not finish."""
    if env.gateway.services.vault.dialect == "sqlite":
        # A unit that never ends holds SQLite's one write lock, which the outbox's own stop (before
        # the adapters') waits for: only PostgreSQL lets the gateway reach the adapter's stop.
        pytest.skip("a unit held for ever blocks every other SQLite unit")
    never = asyncio.Event()

    async def hangs(ctx: CommandContext, inv: Invocation) -> list[Reply]:
        await never.wait()  # inside the router's unit of work: it holds a connection
        return [Reply(text="never")]

    env.gateway.plugins.registry.add_command(Command("hang", hangs, "never ends", role="anyone"))
    interaction = env.interaction("gw", [{"name": "text", "type": 3, "value": "hang"}])
    body = json.dumps(interaction).encode()
    assert (await (await env.post(body, env.sign(body))).json())["type"] == 5
    vault = env.gateway.services.vault
    pool = vault.engine.pool  # dispose() replaces it: keep the one the command's connection is from
    await env.client.close()
    assert pool.checkedout() == 0
    ours = [t for t in asyncio.all_tasks() if "adapters/discord" in t.get_coro().cr_code.co_filename]
    assert ours == []
    assert not env.adapter._commands and not env.adapter._pending
    # The follow-up saying so waits in the vault for the next process (the outbox stopped first).
    after = Vault(vault.url)
    try:
        async with after.transaction() as session:
            rows = (await session.exec(select(OutboxRow).where(OutboxRow.status == "pending"))).all()
    finally:
        await after.dispose()
    texts = [r.payload["text"] for r in rows if r.target == f"interaction/{interaction['id']}"]
    assert texts == ["The gateway stopped before this command finished; nothing was saved. Try it again."]
