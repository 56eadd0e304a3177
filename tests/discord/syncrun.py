"""A Force Web Sync against the fake Discord: shared by the tests and the benchmark.

``minimum_time`` is the least time the fake's limits allow between the first and the last of ``n``
requests (greedy sending is optimal for fixed windows that start at the first request).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from gateway.vault import repo
from gateway.vault.models import Character
from plugins.nightcap import NIGHTCAP
from tests.discord.conftest import DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord

NO_CAPS = {"webhook_cap": {"requests": 0, "seconds": 1}, "channel_cap": {"requests": 0, "seconds": 1}}


def minimum_time(n: int, windows: list[tuple[int, float]]) -> float:
    state: list[list[float | int | None]] = [[None, 0] for _ in windows]
    t = 0.0
    first = None
    for _ in range(n):
        while True:
            blocked = []
            for (limit, seconds), st in zip(windows, state, strict=True):
                start, count = st
                if start is not None and t >= start + seconds:  # type: ignore[operator]
                    st[0], st[1] = None, 0
                elif start is not None and count >= limit:  # type: ignore[operator]
                    blocked.append(start + seconds)  # type: ignore[operator]
            if not blocked:
                break
            t = max(blocked)
        for st in state:
            if st[0] is None:
                st[0] = t
            st[1] += 1  # type: ignore[operator]
        first = t if first is None else first
    return t - (first or 0.0)


def sheet(i: int) -> dict[str, Any]:
    """An export row as the Nightcap characters plugin queues it (plugins/nightcap/export_commands.py)."""
    fields = {"origin": "Human", "subgroup": "Night Watch", "aptitude": "Locks", "weakness": "Debts"}
    traits = {"physical": 3, "mental": 2, "social": 2, "spirit": 3}
    powers = [{"name": "Ward", "tier": "adept", "trait": "spirit"}]
    pools = {"willpower": (5, 5), "essence": (10, 10), "damage": (0, 10)}
    name, owner = f"Character {i:03d}", f"Player {i}"
    character = Character(
        owner_id=1,
        system="nightcap",
        name=name,
        name_key=name.casefold(),
        status="approved",
        sheet={"fields": fields, "traits": traits, "powers": powers},
    )
    return {
        "kind": "sheet",
        "text": name,
        "reason": "sync",
        "character_id": i,
        "summary": NIGHTCAP.summary(character, pools, "en").as_json(),
        "owner": owner,
        "sheet": {
            "name": name,
            "status": "approved",
            "owner": owner,
            "fields": {**fields, "advantage": ""},
            "traits": traits,
            "powers": powers,
            "pools": {k: {"current": cur, "max": top} for k, (cur, top) in pools.items()},
        },
    }


@dataclass
class SyncFigures:
    sheets: int
    delivered: int
    seconds: float  # first request to last request, as the fake saw them
    total_seconds: float  # enqueue to the last row marked delivered
    rate_limited: int
    minimum: float
    restarts: int

    @property
    def ratio(self) -> float:
        return self.seconds / self.minimum if self.minimum else 1.0


async def enqueue_sheets(env: DiscordEnv, n: int, target: str = "sheets") -> None:
    async with env.gateway.services.vault.transaction() as session:
        for i in range(n):
            await repo.enqueue(session, "discord", target, sheet(i))
    env.gateway.outbox.wake()


async def run_sync(
    tmp: Path,
    *,
    n: int = 200,
    webhook: tuple[int, float] = (5, 0.1),
    channel: tuple[int, float] = (30, 3.0),
    restart_after: int | None = None,
    timeout: float = 120.0,
    discord: dict[str, Any] | None = None,
) -> tuple[SyncFigures, FakeDiscord]:
    fake = await FakeDiscord(
        webhook_limit=webhook[0],
        webhook_window=webhook[1],
        channel_limit=channel[0],
        channel_window=channel[1],
    ).start()
    key = SigningKey.generate()
    hooks = {"sheets": fake.add_webhook("201"), "stlog": fake.add_webhook("200")}
    url = f"sqlite+aiosqlite:///{tmp / 'sync.db'}"
    settings = {**NO_CAPS, **(discord or {})}
    env = await start_env(url, fake, key, hooks, **settings)
    restarts = 0
    try:
        started = time.monotonic()
        await enqueue_sheets(env, n)
        if restart_after is not None:
            await env.until(lambda: len(fake.received) >= restart_after, timeout)
            await env.client.close()  # a graceful stop: the outbox drains, the limiter state is saved
            restarts += 1
            env = await start_env(url, fake, key, hooks, **settings)
            env.gateway.outbox.wake()
        await env.until(lambda: len(fake.received) >= n, timeout)
        rows = await env.settled(timeout=timeout)
        total = time.monotonic() - started
        times = [r.at for r in fake.received]
        figures = SyncFigures(
            sheets=n,
            delivered=sum(r.status == "delivered" for r in rows),
            seconds=times[-1] - times[0] if times else 0.0,
            total_seconds=total,
            rate_limited=fake.rate_limited,
            minimum=minimum_time(n, [webhook, channel]),
            restarts=restarts,
        )
        return figures, fake
    finally:
        await env.client.close()
        await fake.close()
