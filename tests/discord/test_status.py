"""What the Discord adapter reports for ``gateway status``: Discord is HTTP both ways, so no
connection, only the rate limiter's buckets, the 429s it met and the webhooks it disabled."""

from __future__ import annotations

from tests.discord.conftest import DiscordEnv
from tests.discord.test_delivery import enqueue, texts


async def test_status_counts_requests_buckets_and_disabled_webhooks(env: DiscordEnv) -> None:
    assert env.adapter.status()["requests"] == 0
    env.fake.delete(env.hooks["stlog"])
    await enqueue(env, "stlog", texts(1))
    await enqueue(env, "sheets", texts(2))
    await env.settled()  # the default 60 s: 20 s ran out on a loaded machine
    status = env.adapter.status()
    assert status["requests"] == 3
    assert status["rate_limited_429"] == 0 and status["global_limited"] == 0
    assert status["buckets"] == len(env.adapter.limiter.buckets) >= 1  # learnt from the headers
    assert status["webhooks_disabled"] == ["stlog"]
    assert status["global_wait_seconds"] == 0.0
