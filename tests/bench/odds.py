"""Benchmark: exact Nightcap odds for ``odds 50`` and ``odds 50 vs 50``.

Measured side by side in one run:
- the pure computation, cold (the per-pool distribution cache cleared before every call) and warm;
- the commands through the router on a SQLite vault (parse, transaction, JSON result), next to
  ``roll 50`` through the same router as a yardstick;
- a seeded simulation of 100,000 contests of 50 vs 50, which is what a dice bot without exact odds
  would do, and which still leaves a standard error of about 0.16 points on each outcome.

Run: ``.venv/bin/python -m tests.bench.odds [--repeat N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from gateway.app import Gateway
from gateway.dice import SeededDice
from gateway.logging import configure_logging
from gateway.settings import Settings
from gateway.types import Channel, Identity, InboundMessage
from plugins.nightcap import mechanics, odds


def timed(fn: Callable[[], object], repeat: int) -> float:
    """Median seconds per call over ``repeat`` calls."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def cold_single() -> None:
    odds._pool_distribution.cache_clear()
    odds.roll_odds(50).as_result()


def cold_contest() -> None:
    odds._pool_distribution.cache_clear()
    odds.contest_odds(odds.roll_odds(50), odds.roll_odds(50)).as_result()


def warm_single() -> None:
    odds.roll_odds(50).as_result()


def warm_contest() -> None:
    odds.contest_odds(odds.roll_odds(50), odds.roll_odds(50)).as_result()


async def through_router(path: Path, texts: list[str], repeat: int) -> dict[str, float]:
    gateway = Gateway(
        Settings(vault={"url": f"sqlite+aiosqlite:///{path}"}), dice=SeededDice(1), platforms=()
    )
    await gateway.start()
    router = gateway.services.router
    assert router is not None
    out: dict[str, float] = {}
    for text in texts:
        message = InboundMessage(Identity("console", "bench", "Bench"), Channel("console", "bench"), text)
        await router.handle(message)  # warm the connection and the caches
        samples = []
        for _ in range(repeat):
            odds._pool_distribution.cache_clear()
            start = time.perf_counter()
            replies = await router.handle(message)
            samples.append(time.perf_counter() - start)
            assert replies[0].error is None, replies
        out[text] = statistics.median(samples)
    await gateway.stop()
    return out


def simulation(trials: int) -> float:
    dice = SeededDice(50)
    start = time.perf_counter()
    for _ in range(trials):
        mechanics.contest(mechanics.roll(50, dice), mechanics.roll(50, dice))
    return time.perf_counter() - start


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--trials", type=int, default=100_000)
    args = parser.parse_args()
    configure_logging("json", "warning")

    rows = [
        ("odds 50, pure, cold", timed(cold_single, args.repeat)),
        ("odds 50 vs 50, pure, cold", timed(cold_contest, args.repeat)),
        ("odds 50, pure, warm", timed(warm_single, args.repeat)),
        ("odds 50 vs 50, pure, warm", timed(warm_contest, args.repeat)),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        routed = asyncio.run(
            through_router(
                Path(tmp) / "bench.db", ["odds 50", "odds 50 vs 50", "roll 50"], max(20, args.repeat // 4)
            )
        )
    rows += [(f"{text}, through the router (cold cache)", t) for text, t in routed.items()]
    sim = simulation(args.trials)
    rows.append((f"simulating {args.trials:,} contests of 50 vs 50", sim))
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {ms(seconds)}")
    exact = dict(rows)["odds 50 vs 50, pure, cold"]
    print(f"exact odds 50 vs 50 vs the {args.trials:,}-contest simulation: {sim / exact:,.0f}x faster")
    ratio = routed["odds 50 vs 50"] / routed["roll 50"]
    print(f"odds 50 vs 50 vs roll 50 through the router: {ratio:.2f}x the time")


if __name__ == "__main__":
    main()
