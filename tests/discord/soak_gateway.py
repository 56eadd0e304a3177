"""Gateway mode under dropped connections: every event answered exactly once.

A stream of slash commands and prefix commands goes to the bot through the fake Gateway while the
connection is dropped every few events (no close frame, so the bot RESUMEs) and the fake re-sends
events the bot had already seen (Discord delivers at least once). At the end every interaction has
exactly one callback and every prefix command exactly one post.

    .venv/bin/python -m tests.discord.soak_gateway --events 400 --drops 20 --overlap 3

The suite runs a small slice (test_gateway_soak.py)."""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nacl.signing import SigningKey

from tests.discord.conftest import CHANNEL, DiscordEnv, start_env
from tests.discord.fake_gateway import MESSAGE_CONTENT, FakeDiscordBot
from tests.discord.test_gateway_mode import message, posts_in


@dataclass
class Outcome:
    events: int
    drops: int
    resumes: int
    identifies: int
    replayed: int
    doubled: int
    lost: int
    seconds: float


async def soak(url: str, events: int, drops: int, overlap: int, seed: int = 7) -> Outcome:
    rng = random.Random(seed)
    # Discord's per-channel limits are another test's subject (test_gateway_mode): wide open here.
    bot = FakeDiscordBot(
        heartbeat_interval=1000,
        portal_intents=MESSAGE_CONTENT,
        replay_overlap=overlap,
        channel_limit=10_000,
        channel_window=1.0,
    )
    await bot.start()
    settings: dict[str, Any] = {
        "mode": "gateway",
        "public_key": None,
        "bot_token": bot.bot_token,
        "prefix": "!",
        "channels": {"stlog": "600000000000000006"},  # the Storyteller log, posted by the bot too
        "channel_cap": {"requests": 0, "seconds": 1},
    }
    env: DiscordEnv = await start_env(url, bot, SigningKey.generate(), {}, sync_commands="off", **settings)
    started = time.monotonic()
    try:
        await env.until(bot.connected, 30)
        env.dice.extend([6] * events)
        drop_at = set(rng.sample(range(1, events), min(drops, events - 1)))
        interactions: list[str] = []
        messages = dropped = 0
        for i in range(events):
            if i in drop_at:
                # Back first (hikari backs off 1, 1.85, 3.4 ... s between quick reconnects), then drop.
                await env.until(bot.connected, 120)
                await bot.drop()
                dropped += 1
            if rng.random() < 0.5:
                interaction = env.interaction("roll", [{"name": "pool", "type": 3, "value": "1"}])
                interactions.append(interaction["id"])
                await bot.dispatch("INTERACTION_CREATE", interaction)
            else:
                messages += 1
                await bot.dispatch("MESSAGE_CREATE", message("!roll 1", ident=100_000 + i))
            await asyncio.sleep(rng.random() * 0.02)
        await env.until(lambda: all(i in bot.callbacks for i in interactions), 120)
        await env.until(lambda: len(posts_in(bot, CHANNEL)) >= messages, 120)
        await env.settled()
        await asyncio.sleep(1.0)  # room for a late double to show
        answered = len(posts_in(bot, CHANNEL))
        stats = env.adapter.status()
        # Callbacks are one per interaction id by construction (a second is refused with 400).
        doubled = max(0, answered - messages) + sum(1 for code, _ in bot.refused if code == 400)
        lost = max(0, messages - answered) + sum(1 for i in interactions if i not in bot.callbacks)
        return Outcome(
            events=events,
            drops=dropped,
            resumes=len(bot.resumes),
            identifies=len(bot.identifies),
            replayed=int(stats["gateway_replayed"]),
            doubled=doubled,
            lost=lost,
            seconds=round(time.monotonic() - started, 1),
        )
    finally:
        await env.client.close()
        await bot.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=400)
    parser.add_argument("--drops", type=int, default=20)
    parser.add_argument("--overlap", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'vault.db'}"
        outcome = asyncio.run(soak(url, args.events, args.drops, args.overlap, args.seed))
    print(outcome)
    raise SystemExit(0 if outcome.doubled == 0 and outcome.lost == 0 else 1)


if __name__ == "__main__":
    main()
