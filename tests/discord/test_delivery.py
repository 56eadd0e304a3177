"""Webhook delivery through the outbox: limits from headers, 429, 5xx, hangs, 404, bad bodies."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from nacl.signing import SigningKey

from adapters.discord.limiter import RateLimiter
from gateway.core.types import Outbound
from gateway.vault import repo
from tests.discord.conftest import DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord


async def enqueue(env: DiscordEnv, target: str, payloads: list[dict[str, Any]]) -> None:
    async with env.gateway.services.vault.transaction() as session:
        for payload in payloads:
            await repo.enqueue(session, "discord", target, payload)
    env.gateway.outbox.wake()


def texts(n: int, tag: str = "m") -> list[dict[str, Any]]:
    return [{"kind": "reply", "text": f"{tag}{i}"} for i in range(n)]


# The limiter-pacing tests below stay on SQLite: their subject is the rate limiter, not the vault.
# (On PostgreSQL the first of them drew one 429 from the fake; see the report on issue 21.)
async def scaled_env(sqlite_url: str, key: SigningKey, **fake_kw: Any) -> tuple[DiscordEnv, FakeDiscord]:
    fake = await FakeDiscord(**fake_kw).start()
    hooks = {"stlog": fake.add_webhook("200"), "sheets": fake.add_webhook("200")}
    caps = {"webhook_cap": {"requests": 0, "seconds": 1}, "channel_cap": {"requests": 0, "seconds": 1}}
    env = await start_env(sqlite_url, fake, key, hooks, **caps)
    return env, fake


async def test_headers_alone_pace_two_webhooks_sharing_a_channel(sqlite_url: str, key: SigningKey) -> None:
    """Safety caps off: only the headers can keep this clear of 429s."""
    env, fake = await scaled_env(sqlite_url, key, webhook_window=0.05, channel_limit=12, channel_window=1.0)
    try:
        await enqueue(env, "stlog", texts(20, "a"))
        await enqueue(env, "sheets", texts(20, "b"))
        rows = await env.settled(timeout=30)
        assert [r.status for r in rows] == ["delivered"] * 40
        assert fake.rate_limited == 0
        assert [b["content"] for b in fake.bodies(env.hooks["stlog"].id)] == [f"a{i}" for i in range(20)]
        assert [b["content"] for b in fake.bodies(env.hooks["sheets"].id)] == [f"b{i}" for i in range(20)]
        # 40 messages, 12 per 1 s window in the shared channel: at least 3 full windows went by.
        times = [r.at for r in fake.received]
        assert times[-1] - times[0] >= 3 * 1.0
        buckets = env.adapter.limiter.buckets
        assert {"ch-200"} <= set(buckets) and buckets["ch-200"].limit == 12
    finally:
        await env.client.close()
        await fake.close()


async def test_hidden_limits_are_kept_by_the_safety_caps(sqlite_url: str, key: SigningKey) -> None:
    fake = await FakeDiscord(headers=False, webhook_window=0.1, channel_limit=8, channel_window=0.5).start()
    hooks = {"stlog": fake.add_webhook("200")}
    caps = {"webhook_cap": {"requests": 5, "seconds": 0.1}, "channel_cap": {"requests": 8, "seconds": 0.5}}
    env = await start_env(sqlite_url, fake, key, hooks, **caps)
    try:
        await enqueue(env, "stlog", texts(20))
        rows = await env.settled(timeout=30)
        assert [r.status for r in rows] == ["delivered"] * 20
        assert fake.rate_limited == 0
        assert env.adapter.limiter.buckets == {}
    finally:
        await env.client.close()
        await fake.close()


async def test_429_is_waited_out_and_counted(sqlite_url: str, key: SigningKey) -> None:
    """Hidden limits and no caps: the sixth message in 2 s draws a 429, and the limiter holds the route
    for the retry_after it was given, so there is exactly one."""
    fake = await FakeDiscord(headers=False).start()
    hooks = {"stlog": fake.add_webhook("200")}
    caps = {"webhook_cap": {"requests": 0, "seconds": 1}, "channel_cap": {"requests": 0, "seconds": 1}}
    env = await start_env(sqlite_url, fake, key, hooks, **caps)
    try:
        await enqueue(env, "stlog", texts(7))
        rows = await env.settled(timeout=30)
        assert [r.status for r in rows] == ["delivered"] * 7
        assert [b["content"] for b in fake.bodies()] == [f"m{i}" for i in range(7)]
        assert fake.rate_limited == 1
        assert env.adapter.limiter.stats.rate_limited == 1
        times = [r.at for r in fake.received]
        assert times[5] - times[0] >= 2.0
    finally:
        await env.client.close()
        await fake.close()


async def test_server_errors_back_off_and_deliver(env: DiscordEnv) -> None:
    env.fake.fail(env.hooks["stlog"].id, 500, times=2)
    env.fake.fail(env.hooks["stlog"].id, 502)
    await enqueue(env, "stlog", texts(2))
    rows = await env.settled(timeout=20)
    assert [(r.status, r.attempts) for r in rows] == [("delivered", 4), ("delivered", 1)]
    assert [b["content"] for b in env.fake.bodies()] == ["m0", "m1"]


async def test_503_with_retry_after_waits_as_told_and_is_not_a_failed_attempt(env: DiscordEnv) -> None:
    """Ten "come back in 0.1 s" answers: the row goes out right after them, with no backoff grown
    from them (the next failure would otherwise wait 2**10 s) and none of its attempts used up."""
    env.fake.unavailable(env.hooks["stlog"].id, 0.1, times=10)
    await enqueue(env, "stlog", texts(1))
    rows = await env.settled(timeout=30)
    assert [(r.status, r.attempts) for r in rows] == [("delivered", 1)]
    assert [b["content"] for b in env.fake.bodies()] == ["m0"]


async def test_a_hanging_request_times_out_and_is_retried(
    vault_url: str, fake: FakeDiscord, key: SigningKey
) -> None:
    hooks = {"stlog": fake.add_webhook("200")}
    env = await start_env(vault_url, fake, key, hooks, request_timeout=0.3)
    try:
        fake.hang(hooks["stlog"].id, 1.0)
        await enqueue(env, "stlog", texts(1))
        rows = await env.settled(timeout=20)
        assert [(r.status, r.attempts) for r in rows] == [("delivered", 2)]
        assert [b["content"] for b in fake.bodies()] == ["m0"]
    finally:
        await env.client.close()


async def test_a_404_webhook_is_disabled_reported_and_never_retried(env: DiscordEnv) -> None:
    env.fake.delete(env.hooks["stlog"])
    await enqueue(env, "stlog", texts(3))
    await enqueue(env, "sheets", texts(1))
    rows = await env.settled(timeout=20)
    stlog = [r for r in rows if r.target == "stlog"]
    assert [(r.status, r.attempts) for r in stlog] == [("dead", 1)] * 3
    assert "answered 404 and is now disabled" in (stlog[0].last_error or "")
    assert all("is disabled" in (r.last_error or "") for r in stlog[1:])
    assert env.fake.not_found == 1  # asked once; the next rows never reached Discord
    assert [r.status for r in rows if r.target == "sheets"] == ["delivered"]
    assert env.adapter.is_disabled(env.adapter.config.webhook("stlog"))


async def test_disabled_survives_a_restart_until_the_url_changes(
    vault_url: str, fake: FakeDiscord, key: SigningKey
) -> None:
    url = vault_url
    old = fake.add_webhook("200")
    env = await start_env(url, fake, key, {"stlog": old})
    fake.delete(old)
    await enqueue(env, "stlog", texts(1))
    await env.settled()
    await env.client.close()
    env = await start_env(url, fake, key, {"stlog": old})
    try:
        await enqueue(env, "stlog", texts(1, "again"))
        rows = await env.settled()
        assert [r.status for r in rows] == ["dead", "dead"]
        assert fake.not_found == 1
    finally:
        await env.client.close()
    new = fake.add_webhook("200")
    env = await start_env(url, fake, key, {"stlog": new})
    try:
        await enqueue(env, "stlog", texts(1, "new"))
        rows = await env.settled()
        assert [r.status for r in rows] == ["dead", "dead", "delivered"]
        assert [b["content"] for b in fake.bodies(new.id)] == ["new0"]
    finally:
        await env.client.close()


async def test_unknown_target_and_refused_body_fail_for_good(env: DiscordEnv) -> None:
    await enqueue(env, "nowhere", texts(1))
    await enqueue(env, "sheets", [{"kind": "reply", "text": "x"}])
    env.fake.fail(env.hooks["sheets"].id, 400)
    rows = await env.settled()
    assert [(r.target, r.status) for r in rows] == [("nowhere", "dead"), ("sheets", "dead")]
    assert "no webhook named 'nowhere'" in (rows[0].last_error or "")
    assert "refused the message (400)" in (rows[1].last_error or "")


async def test_an_expired_follow_up_is_dropped(env: DiscordEnv) -> None:
    payload = {"kind": "followup", "text": "late", "application_id": "1", "token": "t", "expires_at": 1.0}
    await enqueue(env, "interaction/1", [payload])
    [row] = await env.settled()
    assert row.status == "dead" and "expired" in (row.last_error or "")


async def test_cancelled_mid_request_is_not_posted_twice(env: DiscordEnv) -> None:
    """A stop that cuts a delivery off mid-request: the post finishes, is remembered, and the row is
    not posted again when it comes back."""
    hook = env.hooks["sheets"]
    env.fake.slow(hook.id, 0.3)
    row = Outbound(id=999, platform="discord", target="sheets", payload={"kind": "reply", "text": "once"})
    task = asyncio.create_task(env.adapter.deliver(row))
    await asyncio.sleep(0.1)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    assert [b["content"] for b in env.fake.bodies(hook.id)] == ["once"]
    await env.adapter.deliver(row)  # the redelivery after a restart
    assert [b["content"] for b in env.fake.bodies(hook.id)] == ["once"]


def test_limiter_state_survives_a_dump_and_load() -> None:
    now = [100.0]
    wall = [1_000_000.0]
    limiter = RateLimiter(
        clock=lambda: now[0], wall=lambda: wall[0], webhook_cap=(5, 2.0), channel_cap=(30, 60)
    )
    ticket = limiter.begin("webhook:1")
    limiter.finish(
        ticket,
        200,
        {
            "X-RateLimit-Bucket": "b1",
            "X-RateLimit-Limit": "5",
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset-After": "1.5",
        },
    )
    limiter.learn_channel("webhook:1", "200")
    assert limiter.delay("webhook:1") == 1.5
    state = limiter.dump()
    later = RateLimiter(
        clock=lambda: 5.0, wall=lambda: wall[0] + 0.5, webhook_cap=(5, 2.0), channel_cap=(30, 60)
    )
    later.load(state)
    assert abs(later.delay("webhook:1") - 1.0) < 1e-6
    assert later.channel_of == {"webhook:1": "200"}
    assert len(later.caps["channel:200"].done) == 1


async def test_a_webhook_that_answers_again_is_served_within_the_backoff_cap(
    vault_url: str, fake: FakeDiscord, key: SigningKey
) -> None:
    """Eight 503s without Retry-After under the outbox's default backoff (1 s doubling to 300 s):
    uncapped, the ninth attempt would come some 2 to 6 minutes later; under ``[discord]
    retry_max_delay`` it comes within seconds, and no attempt count kills the row (issue 30, item 5)."""
    hooks = {"stlog": fake.add_webhook("200")}
    outbox = {"base_delay": 1.0, "max_delay": 300.0, "max_attempts": None}
    env = await start_env(vault_url, fake, key, hooks, {"outbox": outbox}, retry_max_delay=0.3)
    try:
        fake.fail(hooks["stlog"].id, 503, times=8)
        await enqueue(env, "stlog", texts(1))
        rows = await env.settled(timeout=30)
        assert [(r.status, r.attempts) for r in rows] == [("delivered", 9)]
        assert [b["content"] for b in fake.bodies()] == ["m0"]
    finally:
        await env.client.close()
