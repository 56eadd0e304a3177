"""Benchmark: ``stats channel`` over a channel of 1,000 and 1,000,000 logged rolls (issue 18: under
1 s at the median on SQLite at 1M).

Builds one migrated vault per size straight into the gateway's own tables with ``growth``'s bulk
writer (``insert_chunks``: executemany on SQLite, COPY on PostgreSQL). Every row is a real Nightcap
roll: seeded faces read by ``plugins.nightcap.mechanics.score`` and logged as ``as_result()``, the
columns filled as ``CommandContext.log_roll`` fills them, pools of 1 to 10 dice, Willpower on one
roll in five, all in one channel, spread at 500 a day. Then a gateway over the vault answers
``stats channel`` through its router (``Services.handle``, a Storyteller on the console), and
``stats channel --since 1d``. Printed: the first-ever count (no tally kept yet: the whole log folded
once, in the background, into the vault's ``stats_tally``), with the longest the event loop was held
meanwhile; then, in a new process on that vault, the first call and the median of ``--calls`` calls,
each after one more roll was logged.

Run: ``.venv/bin/python -m tests.bench.stats [--sizes 1000,1000000] [--calls 15] [--postgres URL]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy.ext.asyncio import create_async_engine

from gateway.core.app import Gateway
from gateway.core.commands import new_public_id
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.features.stats import store
from gateway.testing import Clock
from gateway.vault.engine import _JSON, Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import RollLog
from plugins.nightcap.mechanics import score
from tests.bench.growth import ROLLS_PER_DAY, insert_chunks, progress
from tests.fault.cluster import create_database, drop_database

CHANNEL = "main"
NOW = datetime(2026, 11, 30, 20, 0, tzinfo=UTC)


def roll_rows(count: int, seed: int = 18) -> Iterator[dict[str, Any]]:
    rng = random.Random(seed)
    start = NOW - timedelta(days=count / ROLLS_PER_DAY) - timedelta(minutes=5)
    step = timedelta(days=1) / ROLLS_PER_DAY
    seen: set[str] = set()
    for i in range(count):
        pool = 1 + rng.randrange(10)
        roll = score(pool, tuple(1 + int(rng.random() * 10) for _ in range(pool)), rng.random() < 0.2)
        result = roll.as_result()
        public_id = new_public_id()
        while public_id in seen:  # 7 letters: a few clashes in a million
            public_id = new_public_id()
        seen.add(public_id)
        result.update(who="Player", id=public_id)
        yield dict(
            public_id=public_id,
            person_id=None,
            identity_key="console:player",
            display_name="Player",
            channel_key=f"console:{CHANNEL}",
            system="nightcap",
            character_id=None,
            kind="roll",
            pool=pool,
            dice=list(roll.dice),
            total=roll.total,
            degree=roll.degree,
            result=result,
            created_at=start + step * i,
            text=None,
            stlog_kind=None,
        )


async def build(url: str, rolls: int) -> float:
    started = time.perf_counter()
    vault = Vault(url)
    try:
        await upgrade(vault)
    finally:
        await vault.dispose()
    engine = create_async_engine(url, **_JSON)
    try:
        async with engine.begin() as conn:
            await insert_chunks(conn, RollLog, roll_rows(rolls))
    finally:
        await engine.dispose()
    return time.perf_counter() - started


def message(text: str, st: bool) -> InboundMessage:
    return InboundMessage(
        sender=Identity(platform="console", id="st" if st else "player", display_name="Sam", verified=True),
        channel=Channel(platform="console", id=CHANNEL),
        text=text,
        roles=frozenset({"storyteller"}) if st else frozenset(),
    )


class Stalls:
    """The longest the event loop went without running a 1 ms ticker (what the fold held it)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.001)
            now = time.perf_counter()
            self.longest = max(self.longest, now - self._last - 0.001)
            self._last = now

    def __enter__(self) -> Stalls:
        self._last = time.perf_counter()
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    def __exit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()
        self.longest = max(self.longest, time.perf_counter() - self._last - 0.001)


async def measure(url: str, calls: int, phase: str) -> dict[str, float]:
    """``phase`` "first": the first-ever count (the vault keeps no tally yet; ``stats_wait`` long
    enough to wait for the whole background fold). "warm": a new process on a vault that keeps
    them: its first call, then the median of ``calls`` calls, each after one more roll."""
    clock = Clock(now=NOW)
    dice = ScriptedDice([])
    settings = Settings(vault={"url": url}, log={"level": "warning"}, gateway={"stats_wait": 600})
    gateway = Gateway(settings, dice=dice, clock=clock, platforms=())
    await gateway.start()
    out: dict[str, float] = {}
    try:
        handle = gateway.services.handle

        async def once(text: str) -> tuple[float, dict[str, Any]]:
            began = time.perf_counter()
            replies = await handle(message(text, st=True))
            elapsed = time.perf_counter() - began
            if len(replies) != 1 or replies[0].error or replies[0].result is None:
                raise SystemExit(f"{text!r} failed: {replies}")
            return elapsed, replies[0].result

        if phase == "first":
            async with gateway.services.vault.transaction() as session:
                await store.drop(session, gateway.services.vault)  # a cold read, whatever was kept
            with Stalls() as stalls:
                first, result = await once("stats channel")
            out["stats channel (first-ever fold)"] = first * 1000
            out["longest loop hold in it"] = stalls.longest * 1000
            out["stats channel rolls"] = result["rolls"]
            return out
        for line in ("stats channel", "stats channel --since 1d"):
            first, result = await once(line)
            out[f"{line} (first call, new process)"] = first * 1000
            times = []
            for _ in range(calls):
                dice.extend([7, 3, 10])
                await handle(message("roll 3", st=False))
                clock.advance(seconds=1)
                elapsed, result = await once(line)
                times.append(elapsed)
            out[f"{line} (p50)"] = statistics.median(times) * 1000
            out[f"{line} rolls"] = result["rolls"]
    finally:
        await gateway.stop()
    return out


def in_new_process(url: str, calls: int, phase: str) -> dict[str, float]:
    """``measure(url, calls, phase)`` in a new Python process, as a gateway that starts and is
    asked: nothing of this one's caches, nor the heap the vault's builder left."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.bench.stats", f"--{phase}", url, "--calls", str(calls)],
        check=True,
        capture_output=True,
        text=True,
    )
    return {k: float(v) for k, v in orjson.loads(done.stdout.strip().splitlines()[-1]).items()}


async def run(sizes: list[int], calls: int, postgres: str | None) -> None:
    engines = ["sqlite"] + (["postgresql"] if postgres else [])
    for engine in engines:
        for size in sizes:
            with tempfile.TemporaryDirectory() as folder:
                if engine == "sqlite":
                    url = f"sqlite+aiosqlite:///{Path(folder) / 'stats.db'}"
                else:
                    assert postgres is not None
                    url = await create_database(postgres)
                try:
                    seconds = await build(url, size)
                    progress(f"{engine} {size:,} rolls built in {seconds:.0f} s")
                    figures = await asyncio.to_thread(in_new_process, url, calls, "first")
                    figures.update(await asyncio.to_thread(in_new_process, url, calls, "warm"))
                finally:
                    if engine == "postgresql":
                        assert postgres is not None
                        await drop_database(postgres, url)
            for label, value in figures.items():
                unit = "" if label.endswith("rolls") else " ms"
                print(f"{engine:10} {size:>9,} rolls  {label:45} {value:10.1f}{unit}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,1000000")
    parser.add_argument("--calls", type=int, default=15)
    parser.add_argument("--postgres", default=None, help="a PostgreSQL server URL: each size also there")
    # A vault URL: the new process of each phase.
    parser.add_argument("--first", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--warm", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for phase in ("first", "warm"):
        url = getattr(args, phase)
        if url:
            print(orjson.dumps(asyncio.run(measure(url, args.calls, phase))).decode())
            return None
    sizes = [int(s) for s in args.sizes.split(",")]
    asyncio.run(run(sizes, args.calls, args.postgres))


if __name__ == "__main__":
    sys.exit(main())
