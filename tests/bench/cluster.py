"""Benchmark: several ``gateway serve`` processes on one PostgreSQL vault, in one run.

1. ``roll 5`` through ``POST /api/v1/command`` (bearer token), 8 requests in flight, spread
   round-robin over the processes: one process on SQLite, one on PostgreSQL, two and three on
   PostgreSQL. Requests/s, p50 and p99 latency, and the gateway processes' CPU per request
   (utime + stime from ``/proc/<pid>/stat``, summed over the processes, before and after).
2. The delivery delay of a Storyteller-log line to IRC (miniircd, a client in the log channel):
   from the API's reply to the line's arrival, one command at a time, with the command sent to a
   process that does not hold the network's lease (queued by one process, delivered by another:
   the wake-up goes by ``LISTEN/NOTIFY``), beside the same with the command sent to the lease
   holder itself. Outbox and IRC settings are the defaults but for the send pacing.
3. Failover over ``--kills`` kills: kill -9 of the IRC lease holder, then the time until the
   server counts a connection again (``LUSERS``) and until the bot's nick is registered there
   (``ISON``), sampled every 20 ms by a probe client; the killed process is started again as a
   standby before the next kill.

Run: ``.venv/bin/python -m tests.bench.cluster [--postgres URL] [--seconds 10] [--kills 10]``.
PostgreSQL runs durable, as deployed (``fsync`` and ``synchronous_commit`` on), against SQLite's
``synchronous=FULL``: without ``--postgres`` the benchmark starts a throw-away durable cluster of
its own (``tests.bench.pg``); a ``--postgres`` server that is not durable (the test cluster runs
``fsync=off``) is refused. Every setup gets a fresh database, dropped after.
``--only single`` runs just 1 × SQLite against 1 × PostgreSQL of part 1, ``--repeat N`` times
interleaved (each figure is then the median of the runs).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import aiohttp

from tests.bench.pg import check_durable, durable_postgres
from tests.fault.cluster import (
    GatewayProc,
    ServerCount,
    api_roll,
    cluster,
    cpu_seconds,
    create_database,
    drop_database,
    irc_network,
    kill_all,
    lease_pid,
    migrate,
    serve_tables,
    start_all,
    stop_all,
)
from tests.irc.ircd import free_port, miniircd
from tests.irc.lineclient import ROLL_LINE, Line, LineClient

IN_FLIGHT = 8
STLOG = "#stlog"
LINE_CEILING = 300.0  # seconds a line may take before the run stops (a row can be handed back for long)


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


@asynccontextmanager
async def running(
    workdir: Path, count: int, vault_url: str, irc_port: int | None = None
) -> AsyncIterator[list[GatewayProc]]:
    """``count`` processes; with ``irc_port``, the Storyteller log goes to IRC."""
    irc = {} if irc_port is None else {"irc__test": network(irc_port)}
    stlog = [] if irc_port is None else [f"irc:test/{STLOG}"]
    tables = serve_tables(vault_url, failover=ARGS.failover, stlog=stlog, log_level="warning", **irc)
    tables["outbox"] = {}  # the defaults a deployment has (poll_interval 0.5 s)
    procs = cluster(workdir, count, tables)
    try:
        await start_all(procs)
        yield procs
    finally:
        await stop_all(procs)


@asynccontextmanager
async def vault(engine: str, workdir: Path) -> AsyncIterator[str]:
    if engine == "sqlite":
        yield f"sqlite+aiosqlite:///{workdir / 'vault.db'}"  # serve upgrades a SQLite vault itself
        return
    url = await create_database(ARGS.postgres)
    try:
        await migrate(url)
        yield url
    finally:
        await drop_database(ARGS.postgres, url)


# --------------------------------------------------------------------------- 1. throughput


@dataclass
class Throughput:
    setup: str
    requests: int
    errors: int
    seconds: float
    latencies: list[float]
    cpu: float

    def row(self) -> str:
        rate = self.requests / self.seconds
        p50, p99 = quantile(self.latencies, 0.5) * 1000, quantile(self.latencies, 0.99) * 1000
        cpu_ms = self.cpu / max(1, self.requests) * 1000
        return f"{self.setup:<22}{rate:>9.0f}{p50:>9.1f}{p99:>9.1f}{cpu_ms:>12.2f}{self.errors:>8}"


async def load(procs: list[GatewayProc], seconds: float) -> tuple[int, int, list[float]]:
    turn = itertools.count()
    latencies: list[float] = []
    errors = 0
    stop_at = time.monotonic() + seconds
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=30)) as http:

        async def worker() -> None:
            nonlocal errors
            while time.monotonic() < stop_at:
                sent = await api_roll(http, procs[next(turn) % len(procs)], "bench")
                if sent.roll_id and sent.answered is not None:
                    latencies.append(sent.answered - sent.sent)
                else:
                    errors += 1

        await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return len(latencies), errors, latencies


async def throughput(engine: str, count: int, root: Path) -> Throughput:
    workdir = Path(tempfile.mkdtemp(dir=root))
    progress(f"throughput: {count} process(es) on {engine}")
    async with vault(engine, workdir) as url, running(workdir, count, url) as procs:
        await load(procs, min(2.0, ARGS.seconds / 2))  # warm up: connections, caches, JIT of plans
        pids = [p.proc.pid for p in procs if p.proc is not None]
        cpu0 = sum(cpu_seconds(pid) for pid in pids)
        started = time.monotonic()
        requests, errors, latencies = await load(procs, ARGS.seconds)
        took = time.monotonic() - started
        cpu = sum(cpu_seconds(pid) for pid in pids) - cpu0
    name = f"{count} × {'SQLite' if engine == 'sqlite' else 'PostgreSQL'}"
    return Throughput(name, requests, errors, took, latencies, cpu)


# --------------------------------------------------------------------------- 2. and 3. over IRC


def network(port: int) -> dict[str, object]:
    # Paced as a test server allows, so that the figures are the hand-over and not the flood limit;
    # retry_delay (5 s) and the reconnect back-off stay at their defaults.
    return irc_network(port, send_interval=0.01, send_burst=10)


async def owner_of(url: str, procs: list[GatewayProc]) -> GatewayProc:
    deadline = time.monotonic() + 30
    while True:
        pid = await lease_pid(url, "irc:test")
        found = [p for p in procs if p.alive() and p.proc is not None and p.proc.pid == pid]
        if found:
            return found[0]
        assert time.monotonic() < deadline, "no process holds irc:test"
        await asyncio.sleep(0.05)


def line_of(roll_id: str) -> Callable[[Line], bool]:
    def match(line: Line) -> bool:
        found = ROLL_LINE.search(line.text) if line.command == "PRIVMSG" else None
        return found is not None and found.group(1) == roll_id

    return match


async def delays(procs: list[GatewayProc], listener: LineClient, rows: int) -> list[float]:
    """Seconds from each reply to its line in the channel, one command at a time."""
    found: list[float] = []
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30)) as http:
        for i in range(rows):
            sent = await api_roll(http, procs[i % len(procs)], "bench")
            assert sent.roll_id and sent.answered is not None, sent
            line = await listener.wait_for(line_of(sent.roll_id), timeout=LINE_CEILING)
            found.append(line.at - sent.answered)
            if (i + 1) % 25 == 0:
                progress(f"IRC: {i + 1} of {rows} lines")
            del listener.lines[: listener.cursor]
            listener.cursor = 0
    return found


async def failovers(
    url: str, procs: list[GatewayProc], count: ServerCount, kills: int
) -> list[tuple[float, float]]:
    """(connected, registered) seconds after each kill -9 of the owner."""
    times = []
    for _ in range(kills):
        owner = await owner_of(url, procs)
        owner.kill9()
        killed = time.monotonic()
        await count.until(lambda s: not s.registered, timeout=10)
        back = await count.until(lambda s: count.bot(s) >= 1, timeout=10 * ARGS.failover)
        registered = await count.until(lambda s: s.registered, timeout=10 * ARGS.failover)
        times.append((back.at - killed, registered.at - killed))
        await owner.start()  # back as a standby for the next round
    return times


async def irc_figures(root: Path) -> tuple[list[float], list[float], list[tuple[float, float]], float]:
    workdir = Path(tempfile.mkdtemp(dir=root))
    server = miniircd(workdir, free_port())
    await server.start()
    count = ServerCount(server.port)
    listener = LineClient(server.port, "listener")
    try:
        await count.start()
        await listener.connect()
        count.own += 1
        await listener.join(STLOG)
        async with vault("postgresql", workdir) as url, running(workdir, 3, url, server.port) as procs:
            await listener.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=60)
            progress("IRC: three processes connected")
            owner = await owner_of(url, procs)
            others = [p for p in procs if p is not owner]
            await delays(procs, listener, 10)  # warm up
            cross = await delays(others, listener, ARGS.rows)
            same = await delays([owner], listener, ARGS.rows)
            progress("IRC: delivery delays measured; failovers")
            kills = await failovers(url, procs, count, ARGS.kills)
            gap = count.max_gap()
    finally:
        await listener.close()
        await count.stop()
        await server.stop()
    return cross, same, kills, gap


# --------------------------------------------------------------------------- report


def print_throughput(results: list[Throughput]) -> None:
    print(f"\nroll 5 through POST /api/v1/command, {IN_FLIGHT} in flight, {ARGS.seconds:g} s each")
    print(f"{'setup':<22}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU ms/req':>12}{'errors':>8}")
    for result in results:
        print(result.row())


async def single(root: Path) -> None:
    """1 × SQLite against 1 × PostgreSQL, ``--repeat`` times interleaved; medians and the ratio."""
    runs: dict[str, list[Throughput]] = {"sqlite": [], "postgresql": []}
    for _ in range(ARGS.repeat):
        for engine, found in runs.items():
            found.append(await throughput(engine, 1, root))
    print_throughput([result for pair in zip(*runs.values(), strict=True) for result in pair])
    rate = {e: statistics.median(r.requests / r.seconds for r in found) for e, found in runs.items()}
    cpu = {
        e: statistics.median(r.cpu / max(1, r.requests) * 1000 for r in found) for e, found in runs.items()
    }
    print(f"\nmedian of {ARGS.repeat}: SQLite {rate['sqlite']:.0f} req/s, {cpu['sqlite']:.2f} CPU ms/req;")
    print(f"PostgreSQL {rate['postgresql']:.0f} req/s, {cpu['postgresql']:.2f} CPU ms/req")
    print(
        f"PostgreSQL ÷ SQLite: {rate['postgresql'] / rate['sqlite']:.2f}× the throughput, "
        f"{cpu['postgresql'] / cpu['sqlite']:.2f}× the CPU per request"
    )


async def run() -> None:
    if ARGS.postgres:
        found = await check_durable(ARGS.postgres)
    else:
        async with durable_postgres() as url:
            ARGS.postgres = url
            found = await check_durable(url)
            progress(f"durable PostgreSQL started: {found}")
            await measure()
            return
    progress(f"PostgreSQL: {found}")
    await measure()


async def measure() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        root = Path(tmp)
        if ARGS.only == "single":
            await single(root)
            return
        results = [await throughput("sqlite", 1, root)]
        for n in (1, 2, 3):
            results.append(await throughput("postgresql", n, root))
        cross, same, kills, gap = await irc_figures(root)

    print_throughput(results)

    print(f"\nStoryteller-log line to IRC, from the API reply to the line at the server ({ARGS.rows} rows)")
    print(f"{'queued by':<34}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'> 100 ms':>10}")
    for label, values in (("another process (LISTEN/NOTIFY)", cross), ("the lease holder itself", same)):
        p50, p99, top = quantile(values, 0.5), quantile(values, 0.99), max(values)
        late = sum(v > 0.1 for v in values)
        print(f"{label:<34}{p50 * 1000:>9.1f}{p99 * 1000:>9.1f}{top * 1000:>9.1f}{late:>10}")

    connected = [k[0] for k in kills]
    registered = [k[1] for k in kills]
    print(f"\nfailover over {len(kills)} kill -9 of the IRC owner (failover_seconds = {ARGS.failover:g})")
    print(f"{'kill -9 to':<34}{'p50 s':>9}{'max s':>9}")
    print(f"{'a connection at the server':<34}{statistics.median(connected):>9.3f}{max(connected):>9.3f}")
    print(f"{'the nick registered':<34}{statistics.median(registered):>9.3f}{max(registered):>9.3f}")
    print(f"(server sampled every 20 ms; the longest gap between samples was {gap * 1000:.0f} ms)")


def main() -> None:
    global ARGS
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--postgres", help="a durable PostgreSQL server's URL (default: start one, see tests.bench.pg)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="load per throughput setup")
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--rows", type=int, default=200, help="lines per delivery-delay figure")
    parser.add_argument("--failover", type=float, default=2.0, help="[cluster] failover_seconds")
    parser.add_argument("--only", choices=["single"], help="single: just 1 × SQLite against 1 × PostgreSQL")
    parser.add_argument("--repeat", type=int, default=1, help="runs of --only single, interleaved")
    ARGS = parser.parse_args()
    if ARGS.seconds <= 0 or ARGS.kills < 1 or ARGS.rows < 1 or ARGS.failover <= 0 or ARGS.repeat < 1:
        print(
            "--seconds and --failover must be positive, --kills, --rows and --repeat at least 1",
            file=sys.stderr,
        )
        raise SystemExit(2)
    try:
        asyncio.run(run())
    finally:
        kill_all()


ARGS: argparse.Namespace

if __name__ == "__main__":
    main()
