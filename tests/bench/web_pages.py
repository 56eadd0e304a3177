"""Benchmark: server time per public web page (the tools and the verify page), measured by a
middleware around the handler (what the gateway spends; the loopback round trip is left out), with
10 and with 10,000 rolls in the roll log for the verify page.

Run: ``.venv/bin/python -m tests.bench.web_pages [--requests N]``. A fresh SQLite vault in a
temporary folder; the odds pages go through the offload pool as in production (its workers'
caches warm after the first request, as a running gateway's do). Prints p50 / p95 / max in ms.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from gateway.core.app import Gateway, build_app
from gateway.core.commands import new_public_id
from gateway.core.dice import SeededDice
from gateway.core.settings import Settings
from gateway.ops.logging import configure_logging
from gateway.vault.models import RollLog, utcnow

PAGES = {
    "tools index": "/tools/",
    "budget": "/tools/budget?physical=4&mental=3&social=2&p0_name=Shadow+Step&p0_tier=adept"
    "&p1_name=X&p1_tier=basic",
    "budget (partial)": "/tools/budget?physical=4&mental=4&partial=1",
    "roller": "/tools/roller?pool=5&mod=1",
    "roller vs 4": "/tools/roller?pool=5&mod=1&opp=4",
    "roller practice": "/tools/roller?pool=5&opp=4&roll=1",
    "roller 50 vs 50": "/tools/roller?pool=50&opp=50",
    "decanter": "/tools/decanter?pool=6&dc=3&quality=1",
    "dramatic": "/tools/dramatic?pool=6&difficulty=7&specialty=1",
    "pravidla": "/tools/pravidla?pool=6&target=5&need=2",
    "nightwanderers": "/tools/nightwanderers?pool=6&difficulty=4&need=2",
    "verify missing": "/r/zzzzzzz",
}


def rolls(n: int) -> list[RollLog]:
    now = utcnow()
    return [
        RollLog(
            public_id=new_public_id(),
            identity_key=f"console:p{i}",
            display_name=f"Player {i}",
            channel_key="console:main",
            system="nightcap",
            kind="roll",
            pool=3,
            dice=[8, 3, 10],
            total=3,
            degree="solid",
            result={
                "kind": "roll",
                "system": "nightcap",
                "pool": 3,
                "dice": [8, 3, 10],
                "total": 3,
                "dice_total": 3,
                "degree": "solid",
                "chance_die": False,
                "willpower": False,
            },
            created_at=now,
        )
        for i in range(n)
    ]


async def measure(client: TestClient, times: list[float], path: str, count: int) -> list[float]:
    for _ in range(3):  # warm: templates compiled, offload workers started and cached
        assert (await client.get(path)).status in (200, 404)
    times.clear()
    for _ in range(count):
        response = await client.get(path)
        await response.read()
    return list(times)


def line(name: str, samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return f"{name:<24} p50 {statistics.median(ms):7.2f} ms  p95 {p95:7.2f} ms  max {ms[-1]:7.2f} ms"


async def run(count: int) -> None:
    configure_logging("json", "warning")
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(vault={"url": f"sqlite+aiosqlite:///{folder}/vault.db"})
        gateway = Gateway(settings, dice=SeededDice(7), platforms=("web",))
        await gateway.upgrade_vault()
        app = build_app(gateway)
        times: list[float] = []

        @web.middleware
        async def timer(
            request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
        ):
            start = time.perf_counter()
            try:
                return await handler(request)
            finally:
                times.append(time.perf_counter() - start)

        app.middlewares.insert(0, timer)
        client = TestClient(TestServer(app, host="127.0.0.1"))
        await client.start_server()
        try:
            print(f"{count} requests per page, one at a time")
            for name, path in PAGES.items():
                print(line(name, await measure(client, times, path, count)))
            logged = 0
            for size in (10, 10_000):
                made = rolls(size - logged)
                async with gateway.services.vault.transaction() as session:
                    session.add_all(made)
                logged = size
                wanted = [r.public_id for r in random.sample(made, min(10, len(made)))]
                samples = await measure(client, times, f"/r/{wanted[0]}", 0)
                for n in range(count):
                    times.clear()
                    await (await client.get(f"/r/{wanted[n % len(wanted)]}")).read()
                    samples += times
                print(line(f"verify ({size} rolls)", samples))
        finally:
            await client.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(run(args.requests))


if __name__ == "__main__":
    main()
