"""``st announce`` and ``st emote`` to Discord (issue 30, item 2): a channel the gateway has seen but
cannot post to (no webhook, no bot that posts) gets no row, where it used to get one that died at once
("no webhook named '9/10' in [discord.webhooks]"); a named webhook among the announce targets still
gets its row, delivered."""

from __future__ import annotations

from nacl.signing import SigningKey

from adapters.discord.adapter import idempotent
from gateway.core.types import Channel, Identity, InboundMessage
from tests.discord.conftest import CHANNEL, GUILD, start_env
from tests.discord.fake_discord import FakeDiscord


async def test_a_channel_without_a_webhook_gets_no_dead_row(
    vault_url: str, fake: FakeDiscord, key: SigningKey
) -> None:
    hooks = {"table": fake.add_webhook("200"), "stlog": fake.add_webhook("201")}
    env = await start_env(vault_url, fake, key, hooks, {"nightcap": {"announce_targets": ["discord:table"]}})
    try:
        env.dice.extend([9, 8, 2])
        await env.command("roll", [{"name": "pool", "type": 3, "value": "3"}])  # the channel is seen
        for text in ("st announce the doors open", "st emote nods"):
            message = InboundMessage(
                sender=Identity("console", "sam", "Sam"),
                channel=Channel("console", "st-desk"),
                text=text,
                roles=frozenset({"storyteller"}),
            )
            [reply] = await env.gateway.services.handle(message)
            assert reply.error is None, reply.text
        rows = await env.settled()
        channel = f"{GUILD}/{CHANNEL}"
        assert [r.target for r in rows if r.target == channel] == []  # not queued, so not dead
        assert [(r.target, r.status) for r in rows if r.target == "table"] == [
            ("table", "delivered")
        ] * 2  # announce, emote
        assert all(r.status != "dead" for r in rows), [(r.target, r.last_error) for r in rows]
        assert any("the doors open" in str(b) for b in fake.bodies())
    finally:
        await env.client.close()


async def test_the_adapter_says_where_it_can_post(vault_url: str, fake: FakeDiscord, key: SigningKey) -> None:
    env = await start_env(vault_url, fake, key, {"stlog": fake.add_webhook("200")})
    try:
        adapter = env.adapter
        assert adapter.can_post("stlog") and adapter.can_post("interaction/123")
        assert not adapter.can_post(f"{GUILD}/{CHANNEL}") and not adapter.can_post("nosuchhook")
    finally:
        await env.client.close()


def test_a_bot_message_carries_the_rows_nonce_and_enforces_it() -> None:
    """Issue 30, item 6: what makes a repeated bot post (after a kill -9) come back as the first."""
    body = idempotent({"content": "hi"}, 123456789012)
    assert body == {"content": "hi", "nonce": "gw-123456789012", "enforce_nonce": True}
    assert len(idempotent({}, 10**22)["nonce"]) <= 25  # Discord's limit, whatever the row id
