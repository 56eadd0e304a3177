"""Benchmark: does heavy work hold the event loop? ``roll 5`` latency while another client loops the
worst ``odds`` of every rule system (``--case odds``) or a Storyteller's ``st sync`` of ``--sheets``
approved Nightcap sheets with ``[nightcap] sheet_export`` set (``--case sync``), beside the same
``roll 5`` with no load, in one run.

The gateway runs in a process of its own (spawned: the real ``Gateway`` and its aiohttp app on a
loopback port) with a loop-lag monitor: a task that asks to wake every 5 ms and keeps the longest
time it was kept waiting past that, which is the longest time anything held the loop. Two clients
in this process, one request in flight each, through ``POST /api/v1/command``: one loops the load
(the odds below, each in a channel bound to its system; or ``st sync``), the other sends ``roll 5``
and is timed. The sync case's sheets are written straight into the vault before the gateway serves.

``--executor`` (repeat it to compare in one run): ``process`` (the gateway's offload pool, the
default), ``thread`` (the same computations in ``asyncio.to_thread``, to show that a thread does not
free the loop from the GIL) or ``loop`` (``offload_workers = 0``: on the loop, as before).

Run: ``.venv/bin/python -m tests.bench.stall [--seconds 10] [--postgres URL] [--executor process]
[--workers N] [--only sqlite|group|postgres] [--case odds|sync] [--sheets 200]``
(every setup on a fresh vault: SQLite, SQLite with ``[vault] group_commit``, PostgreSQL when a URL is
given, also from ``GATEWAY_TEST_POSTGRES_URL``).
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp

from gateway.testing import POSTGRES_URL_VARIABLE, postgres_database
from tests.irc.ircd import free_port

TOKEN = "stall-token-0123456789"
OWNER = "http:load"  # the vault's owner: a Storyteller, so it may bind channels to systems
# The worst odds of each system, each in a channel bound to it.
ODDS = [
    ("dramatic", "odds 50 spec vs 50 spec"),
    ("decanter", "odds 50 madv vs 50 madv"),
    ("nightcap", "odds 50 wp vs 50 wp"),
    ("pravidla", "odds 50 vs 50 tn 5"),
    ("nightwanderers", "odds 50 vs 50 diff 5"),
]
TICK = 0.005  # the lag monitor's wake-up interval
SHEET_EXPORT = "discord:sheets"  # the sync case's export (no adapter runs: its rows stay queued)


# ---------------------------------------------------------------- the gateway's process


@dataclass
class LoopLag:
    """The longest time the loop was held past a wake-up, and how often past 20 ms. ``longest_cpu``:
    the most CPU the loop's thread used between two wake-ups, which is what the gateway's own code
    held it for; wall time past it is the machine not running the process (on a loaded machine)."""

    longest: float = 0.0
    longest_cpu: float = 0.0
    over_20ms: int = 0
    ticks: int = 0

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(TICK)
            late = loop.time() - asked - TICK
            self.ticks += 1
            self.longest = max(self.longest, late)
            self.longest_cpu = max(self.longest_cpu, time.thread_time() - cpu)
            self.over_20ms += late > 0.020


def serve(tables: dict[str, Any], port: int, executor: str, sheets: int, conn: Connection) -> None:
    """The child: a gateway on ``port`` until told ``stop``; ``lag`` answers and resets the monitor."""
    asyncio.run(_serve(tables, port, executor, sheets, conn))


def bench_sheet(i: int) -> dict[str, Any]:
    """A finished Nightcap sheet, its traits varied with ``i``."""
    return {
        "fields": {"origin": "Mage", "subgroup": "", "aptitude": "", "advantage": "", "weakness": ""},
        "traits": {"physical": 1 + i % 4, "mental": 1 + i % 3, "social": 2, "spirit": 1 + i % 2},
        "powers": [{"name": "Ward", "tier": "basic", "trait": "spirit"}],
        "max": {},
    }


async def seed_sheets(vault: Any, count: int) -> None:
    """``count`` approved Nightcap characters of 20 players, their pools full."""
    from gateway.features.characters import name_key
    from gateway.vault.models import Character, Person, Pool

    async with vault.transaction() as session:
        players = [Person(display_name=f"Player {i}") for i in range(20)]
        session.add_all(players)
        await session.flush()
        made = []
        for i in range(count):
            name = f"Sheet {i:04d}"
            row: dict[str, Any] = {"name": name, "name_key": name_key(name), "owner_id": players[i % 20].id}
            made.append(Character(**row, system="nightcap", status="approved", sheet=bench_sheet(i)))
        session.add_all(made)
        await session.flush()
        for character in made:
            assert character.id is not None
            traits = character.sheet["traits"]
            wp = traits["mental"] + traits["spirit"]
            for pool, current, maximum in (("willpower", wp, wp), ("essence", 10, 10), ("damage", 0, 10)):
                session.add(Pool(character_id=character.id, name=pool, current=current, maximum=maximum))


async def _serve(tables: dict[str, Any], port: int, executor: str, sheets: int, conn: Connection) -> None:
    from aiohttp import web

    from gateway.core.app import Gateway, build_app
    from gateway.core.settings import Settings
    from gateway.ops.logging import configure_logging

    configure_logging(level="warning")
    gateway = Gateway(Settings(**tables), platforms=("http",))
    if executor == "thread":

        async def in_thread(compute: Callable[..., Any], *args: Any) -> Any:
            return await asyncio.to_thread(compute, *args)

        gateway.services.offload.run = in_thread  # type: ignore[method-assign]
    await gateway.upgrade_vault()
    if sheets:
        await seed_sheets(gateway.services.vault, sheets)
    runner = web.AppRunner(build_app(gateway))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    lag = LoopLag()
    monitor = asyncio.create_task(lag.watch())
    loop = asyncio.get_running_loop()
    conn.send("ready")
    while (command := await loop.run_in_executor(None, conn.recv)) != "stop":
        if command == "lag":
            cpu = os.times().user + os.times().system
            conn.send((lag.longest, lag.longest_cpu, lag.over_20ms, cpu))
            lag = LoopLag()
            monitor.cancel()
            monitor = asyncio.create_task(lag.watch())
    monitor.cancel()
    await runner.cleanup()
    conn.send("stopped")


# ---------------------------------------------------------------- the clients


@dataclass
class Client:
    url: str
    http: aiohttp.ClientSession
    errors: dict[str, int] = field(default_factory=dict)

    async def command(self, text: str, channel: str) -> dict[str, Any]:
        body = {"text": text, "channel": channel, "name": "load"}
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with self.http.post(self.url + "/api/v1/command", json=body, headers=headers) as resp:
            data: dict[str, Any] = await resp.json(content_type=None)
        for reply in data.get("replies") or []:
            if reply.get("error"):
                self.errors[reply["error"]] = self.errors.get(reply["error"], 0) + 1
        return data


async def roll_loop(client: Client, until: float) -> list[float]:
    samples = []
    while time.monotonic() < until:
        start = time.perf_counter()
        await client.command("roll 5", "rolls")
        samples.append(time.perf_counter() - start)
    return samples


async def odds_loop(client: Client, until: float) -> list[tuple[str, float]]:
    done = []
    while time.monotonic() < until:
        for system, text in ODDS:
            start = time.perf_counter()
            await client.command(text, f"odds-{system}")
            done.append((system, time.perf_counter() - start))
    return done


async def sync_loop(client: Client, until: float) -> list[tuple[str, float]]:
    done = []
    while time.monotonic() < until:
        start = time.perf_counter()
        await client.command("st sync", "sync")
        done.append(("sync", time.perf_counter() - start))
    return done


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


@dataclass
class Phase:
    name: str
    rolls: list[float]
    odds: list[tuple[str, float]]
    longest_lag: float
    longest_cpu: float
    lags_over_20ms: int
    cpu: float
    errors: dict[str, int]


async def run_setup(
    tables: dict[str, Any], seconds: float, executor: str, case: str = "odds", sheets: int = 0
) -> list[Phase]:
    port = free_port()
    tables = {**tables, "http": {"host": "127.0.0.1", "tokens": {"load": TOKEN}}}
    if case == "sync":
        tables["nightcap"] = {**tables.get("nightcap", {}), "sheet_export": SHEET_EXPORT}
    seeded = sheets if case == "sync" else 0
    parent, child = multiprocessing.get_context("spawn").Pipe()
    args = (tables, port, executor, seeded, child)
    proc = multiprocessing.get_context("spawn").Process(target=serve, args=args)
    proc.start()
    loop = asyncio.get_running_loop()
    assert await loop.run_in_executor(None, parent.recv) == "ready"

    def lag() -> tuple[float, float, int, float]:
        parent.send("lag")
        return parent.recv()  # type: ignore[no-any-return]

    phases = []
    try:
        async with aiohttp.ClientSession() as http:
            roller = Client(f"http://127.0.0.1:{port}", http)
            oddser = Client(roller.url, http)
            if case == "sync":
                await roller.command("system nightcap", "sync")
                await oddser.command("st sync", "sync")  # warm
                load, beside = sync_loop, "roll 5 beside st sync"
            else:
                for system, text in ODDS:  # bind the channels, and warm each system's odds once
                    await roller.command(f"system {system}", f"odds-{system}")
                    await oddser.command(text, f"odds-{system}")
                load, beside = odds_loop, "roll 5 beside odds"
            await roll_loop(roller, time.monotonic() + 1.0)  # warm-up
            for phase in ("roll 5 alone", beside):
                roller.errors, oddser.errors = {}, {}
                _, _, _, cpu_before = await loop.run_in_executor(None, lag)
                until = time.monotonic() + seconds
                odds: list[tuple[str, float]] = []
                if phase == "roll 5 alone":
                    rolls = await roll_loop(roller, until)
                else:
                    rolls, odds = await asyncio.gather(roll_loop(roller, until), load(oddser, until))
                longest, longest_cpu, over, cpu_after = await loop.run_in_executor(None, lag)
                errors = {**roller.errors, **{f"odds {k}": v for k, v in oddser.errors.items()}}
                cpu = cpu_after - cpu_before
                phases.append(Phase(phase, rolls, odds, longest, longest_cpu, over, cpu, errors))
    finally:
        parent.send("stop")
        await loop.run_in_executor(None, parent.recv)
        proc.join(30)
    return phases


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory() as tmp:
        yield f"sqlite+aiosqlite:///{Path(tmp) / 'stall.db'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds per phase")
    parser.add_argument("--postgres", default=os.environ.get(POSTGRES_URL_VARIABLE))
    parser.add_argument(
        "--executor", choices=("process", "thread", "loop"), action="append", help="repeat to compare"
    )
    parser.add_argument("--workers", type=int, default=None, help="[gateway] offload_workers")
    parser.add_argument("--only", choices=("sqlite", "group", "postgres"), action="append")
    parser.add_argument("--case", choices=("odds", "sync"), action="append", help="the load; repeat for both")
    parser.add_argument("--sheets", type=int, default=200, help="approved sheets st sync sends (--case sync)")
    args = parser.parse_args()
    executors = args.executor or ["process"]
    cases = args.case or ["odds"]
    setups: list[tuple[str, Callable[[], Any], dict[str, Any]]] = [
        ("sqlite", sqlite_url, {}),
        ("group", sqlite_url, {"group_commit": True}),
    ]
    if args.postgres:
        setups.append(("postgres", lambda: postgres_database(args.postgres), {}))
    print(f"{args.seconds:g} s per phase; one request in flight per client")
    print(
        "| vault | odds run | phase | roll 5 p50 ms | roll 5 p99 ms | rolls | loads done"
        " | load median / max ms | longest loop hold ms | its CPU ms | holds > 20 ms"
        " | gateway CPU s | errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, make_url, vault in setups:
        if args.only and name not in args.only:
            continue
        label = {"sqlite": "SQLite", "group": "SQLite, group commit", "postgres": "PostgreSQL"}[name]
        for case, executor in [(c, e) for c in cases for e in executors]:
            if case == "sync" and executor != executors[0]:
                continue  # the sync runs on the loop whatever the odds executor
            gateway: dict[str, Any] = {}
            if executor == "loop":
                gateway["offload_workers"] = 0
            elif args.workers is not None:
                gateway["offload_workers"] = args.workers
            with make_url() as url:
                tables = {"vault": {"url": url, "owner": OWNER, **vault}, "gateway": gateway}
                for p in asyncio.run(run_setup(tables, args.seconds, executor, case, args.sheets)):
                    print(row(label, executor, p), flush=True)


def row(label: str, executor: str, p: Phase) -> str:
    times = [t for _, t in p.odds]
    odds = f"{statistics.median(times) * 1000:.0f} / {max(times) * 1000:.0f}" if times else "-"
    return (
        f"| {label} | {executor} | {p.name} | {pct(p.rolls, 0.5):.1f} | {pct(p.rolls, 0.99):.1f}"
        f" | {len(p.rolls)} | {len(p.odds)} | {odds} | {p.longest_lag * 1000:.1f}"
        f" | {p.longest_cpu * 1000:.1f} | {p.lags_over_20ms} | {p.cpu:.2f} | {p.errors or '-'} |"
    )


if __name__ == "__main__":
    main()
