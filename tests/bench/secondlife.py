"""Benchmark: ``POST /sl/v1/command`` with ``roll 5`` against a bare aiohttp route, side by side.

Run: ``.venv/bin/python -m tests.bench.secondlife [--seconds S] [--rounds R] [--concurrency C]``;
``--vault-url postgresql+asyncpg://...`` runs the gateway on that (empty) PostgreSQL database instead.

Two server processes start on loopback: the real gateway (Second Life adapter, SQLite vault in a
temporary directory with ``[vault] group_commit``, every roll durably written to the roll log with its
Storyteller-log line before the HUD gets its answer) and a bare aiohttp app whose handler reads the
body and returns fixed text. By default it runs twice: as the issue's target describes it, and with
``[stlog] targets = ["secondlife:st-huds"]``, where each roll also queues a push of that line for the
Storyteller HUDs (none is registered here, so the outbox expands and drops them); ``--stlog`` or
``--no-stlog`` runs one. One load client sends
both the same signed requests (simulator headers, HMAC, a fresh nonce each) over keep-alive
connections, alternating rounds so both see the same machine load:

1. closed loop, C requests in flight: the maximum rate of each, with p50/p99 latency;
2. open loop at half of each one's measured maximum: p50/p99 latency from the scheduled send time
   (so queueing counts);
3. the gateway's peak resident memory (VmHWM), and a check that the vault holds exactly one
   roll-log row per roll answered.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from adapters.secondlife.auth import sign_request
from tests.bench.loop_trace import TRACE_PATH, Event, LoopTrace, blame

SECRET = "benchmark secret, not for production"
HALF_LOAD_P99_TARGET = 0.020  # seconds
FIXED = "Bench rolls 5 dice: 9 5 10 2 7 → 4 (Strong) #abcde"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ---------------------------------------------------------------- servers (child processes)


def vault_url(vault: str) -> str:
    """A URL as it is, a path as the SQLite vault at that path."""
    return vault if "://" in vault else f"sqlite+aiosqlite:///{vault}"


async def serve_gateway(
    port: int, vault: str, group_commit: bool, stlog: bool, trace: bool = False, profile: str | None = None
) -> None:
    from gateway import Gateway, SeededDice, Settings, build_app, configure_logging

    configure_logging("json", "warning")
    settings = Settings(
        vault={"url": vault_url(vault), "group_commit": group_commit},
        secondlife={"shared_secret": SECRET, "rate_burst": 1_000_000, "rate_per_second": 1_000_000.0},
        stlog={"targets": ["secondlife:st-huds"] if stlog else []},
    )
    gateway = Gateway(settings, dice=SeededDice(7), platforms=("secondlife",))
    app = build_app(gateway)
    if trace:
        loop_trace = LoopTrace()
        loop_trace.install()
        loop_trace.add_route(app)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    if trace:
        loop_trace.forget()  # the start-up's work is not the load's
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print("ready", flush=True)
    if profile:
        # CPU time, not wall time: on a shared machine the wall clock charges the other processes.
        profiler = cProfile.Profile(time.thread_time)
        profiler.enable()
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        profiler.disable()
        profiler.dump_stats(profile)
        return
    await asyncio.Event().wait()


async def serve_bare(port: int) -> None:
    async def handler(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(text=FIXED)

    app = web.Application()
    app.router.add_post("/sl/v1/command", handler)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print("ready", flush=True)
    await asyncio.Event().wait()


def start_child(*args: str) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bench.secondlife", *args],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if line.strip() != "ready":
        child.kill()
        raise RuntimeError(f"server {args} did not start")
    return child


def cpu_seconds(pid: int, stat: str = "stat") -> float:
    """User + system CPU time the process (``stat``: or ``task/PID/stat``, its main thread) has used
    so far."""
    fields = Path(f"/proc/{pid}/{stat}").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def measured(pid: int, run: Any) -> dict[str, float]:
    """``run``'s figures plus the server's CPU milliseconds per request while it ran, in all and on
    its main thread (the event loop's: what bounds one process's rate)."""
    main = f"task/{pid}/stat"
    before, before_main = cpu_seconds(pid), cpu_seconds(pid, main)
    figures: dict[str, float] = await run
    n = max(1.0, figures["n"])
    figures["cpu_ms"] = 1000 * (cpu_seconds(pid) - before) / n
    figures["loop_cpu_ms"] = 1000 * (cpu_seconds(pid, main) - before_main) / n
    return figures


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


# ---------------------------------------------------------------- load client


class Client:
    """HUDs sending ``roll 5``: signed, simulator headers, a new nonce per request; with ``state``,
    asking for the HUD state as the Player HUD does with every command."""

    def __init__(self, huds: int = 50, state: bool = False) -> None:
        self.huds = [(str(uuid.uuid4()), str(uuid.uuid4())) for _ in range(huds)]
        self.sent = 0
        self.state = state

    def request(self) -> tuple[bytes, dict[str, str]]:
        self.sent += 1
        obj, owner = self.huds[self.sent % len(self.huds)]
        request: dict[str, Any] = {"text": "roll 5", "nonce": self.sent}
        if self.state:
            request["state"] = True
        body = json.dumps(request).encode()
        ts = str(int(time.time()))
        headers = {
            "Content-Type": "application/json",
            "X-SecondLife-Shard": "Production",
            "X-SecondLife-Object-Key": obj,
            "X-SecondLife-Owner-Key": owner,
            "X-SecondLife-Owner-Name": "Bench Resident",
            "X-SecondLife-Object-Name": "Nightcap Player HUD",
            "X-SecondLife-Region": "Bench Sim (256000, 256000)",
            "X-Gateway-Timestamp": ts,
            "X-Gateway-Signature": sign_request(SECRET.encode(), ts, obj, owner, "agni", "Bench Sim", body),
        }
        return body, headers


async def one(session: aiohttp.ClientSession, url: str, client: Client, ok: list[int]) -> None:
    body, headers = client.request()
    async with session.post(url, data=body, headers=headers) as response:
        raw = await response.read()
        if response.status != 200:
            raise RuntimeError(f"{response.status}: {raw[:200]!r}")
        if raw != FIXED.encode() and b'"error"' in raw:
            raise RuntimeError(f"refused: {raw[:200]!r}")
        ok[0] += 1


async def closed_loop(
    url: str, seconds: float, concurrency: int, client: Client, ok: list[int]
) -> dict[str, float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds
    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def worker() -> None:
            while time.perf_counter() < deadline:
                start = time.perf_counter()
                await one(session, url, client, ok)
                latencies.append(time.perf_counter() - start)

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - start
    return summary(len(latencies) / elapsed, latencies)


async def open_loop(
    url: str, seconds: float, rate: float, client: Client, ok: list[int], slow: list[tuple[float, float]]
) -> dict[str, float]:
    """Requests scheduled at a fixed rate; latency counts from the scheduled time. Those over the
    target go to ``slow`` as (scheduled time, latency)."""
    latencies: list[float] = []
    connector = aiohttp.TCPConnector(limit=256)
    async with aiohttp.ClientSession(connector=connector) as session:
        start = time.perf_counter()
        total = int(seconds * rate)
        tasks = []

        async def fire(at: float) -> None:
            await one(session, url, client, ok)
            latency = time.perf_counter() - at
            latencies.append(latency)
            if latency > HALF_LOAD_P99_TARGET:
                slow.append((at, latency))

        for i in range(total):
            at = start + i / rate
            delay = at - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(fire(at)))
        await asyncio.gather(*tasks)
        elapsed = time.perf_counter() - start
    return {**summary(total / elapsed, latencies), "scheduled": rate}


def kept_pace(figures: dict[str, float]) -> str:
    """A note when the open loop's client fell behind its schedule: its latencies then measure the
    client's own queue, not the server (the bare route's half load, on 2 cores, often)."""
    if figures["rate"] >= 0.9 * figures["scheduled"]:
        return ""
    sent, scheduled = figures["rate"], figures["scheduled"]
    return f" (the load client sent only {sent:.0f} of {scheduled:.0f} req/s: its own queue, not the server)"


def summary(rate: float, latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {
        "rate": rate,
        "p50_ms": 1000 * ordered[len(ordered) // 2],
        "p99_ms": 1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        "n": len(ordered),
    }


async def counts(url: str) -> tuple[int, int]:
    """Roll-log rows, and those with their Storyteller-log line."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(url)
    async with engine.connect() as db:
        logged = (await db.execute(text("select count(*) from roll_log"))).scalar_one()
        # A roll's Storyteller-log line is kept on its roll-log row (RollLog.stlog_kind).
        stlogged = (
            await db.execute(text("select count(*) from roll_log where stlog_kind is not null"))
        ).scalar_one()
    await engine.dispose()
    return int(logged), int(stlogged)


async def loop_events(port: int) -> tuple[list[Event], list[float]]:
    """The gateway's long loop events since the last call, and every full collection's seconds
    since it started (``--trace``)."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{TRACE_PATH}") as r:
        found = await r.json()
    events = [(float(a), float(b), float(c), float(d), str(e)) for a, b, c, d, e in found["events"]]
    return events, [float(s) for s in found["gen2"]]


async def run(
    seconds: float,
    rounds: int,
    concurrency: int,
    group_commit: bool,
    stlog: bool,
    url: str | None = None,
    trace: bool = False,
    profile: str | None = None,
    state: bool = False,
) -> dict[str, Any]:
    vault = url or str(Path(tempfile.mkdtemp(prefix="sl-bench-")) / "vault.db")
    gw_port, bare_port = free_port(), free_port()
    # Migrate first, so the gateway process starts on a ready vault.
    from gateway import Gateway, Settings

    prep = Gateway(Settings(vault={"url": vault_url(vault)}), platforms=())
    await prep.upgrade_vault()
    before = await counts(vault_url(vault))
    await prep.services.vault.dispose()
    gateway = start_child(
        "--serve-gateway",
        str(gw_port),
        str(vault),
        "--group-commit" if group_commit else "--no-group-commit",
        "--stlog" if stlog else "--no-stlog",
        *(["--trace"] if trace else []),
        *(["--profile", profile] if profile else []),
    )
    bare = start_child("--serve-bare", str(bare_port))
    client = Client(state=state)
    gw_ok, bare_ok = [0], [0]
    gw_url = f"http://127.0.0.1:{gw_port}/sl/v1/command"
    bare_url = f"http://127.0.0.1:{bare_port}/sl/v1/command"
    try:
        await closed_loop(gw_url, 1.0, concurrency, client, gw_ok)  # warm-up
        await closed_loop(bare_url, 1.0, concurrency, client, bare_ok)
        max_rounds: list[dict[str, Any]] = []
        for _ in range(rounds):
            g = await measured(gateway.pid, closed_loop(gw_url, seconds, concurrency, client, gw_ok))
            b = await measured(bare.pid, closed_loop(bare_url, seconds, concurrency, client, bare_ok))
            max_rounds.append({"gateway": g, "bare": b, "ratio": g["rate"] / b["rate"]})
        gw_max = statistics.median(r["gateway"]["rate"] for r in max_rounds)
        bare_max = statistics.median(r["bare"]["rate"] for r in max_rounds)
        slow: list[tuple[float, float]] = []
        if trace:
            await loop_events(gw_port)  # only the half-load run's events
        half = {"gateway": await open_loop(gw_url, seconds, gw_max / 2, client, gw_ok, slow)}
        events, full = await loop_events(gw_port) if trace else ([], [])
        half["bare"] = await open_loop(bare_url, seconds, bare_max / 2, client, bare_ok, [])
        rss = peak_rss_mb(gateway.pid)
    finally:
        for child in (gateway, bare):
            child.terminate()
            child.wait(timeout=10)
    after = await counts(vault_url(vault))
    logged, stlogged = after[0] - before[0], after[1] - before[1]
    return {
        "rounds": max_rounds,
        "gateway_max_rps": gw_max,
        "bare_max_rps": bare_max,
        "ratio": statistics.median(r["ratio"] for r in max_rounds),
        "cpu_ratio": statistics.median(r["bare"]["cpu_ms"] / r["gateway"]["cpu_ms"] for r in max_rounds),
        "loop_cpu_ms": statistics.median(r["gateway"]["loop_cpu_ms"] for r in max_rounds),
        "half_rate": half,
        "slow_requests": len(slow),
        "blame": blame(slow, events) if trace else [],
        "full_collections": full,
        "gateway_peak_rss_mb": rss,
        "rolls_answered": gw_ok[0],
        "rolls_logged": logged,
        "stlog_rows": stlogged,
        "concurrency": concurrency,
        "seconds_per_round": seconds,
        "cpus": os.cpu_count(),
        "group_commit": group_commit,
        "stlog": stlog,
        "vault": vault_url(vault).split("+", 1)[0],
    }


def report(r: dict[str, Any]) -> str:
    lines = [
        f"gateway on {r['vault']}: [vault] group_commit={r['group_commit']},"
        f" Storyteller-log pushes queued={r['stlog']},"
        f" {r['concurrency']} requests in flight, {r['seconds_per_round']:g} s per measurement",
        "round  gateway req/s  p50 ms  p99 ms  CPU ms/req (loop)"
        " |  bare req/s  p50 ms  p99 ms  CPU ms/req |  ratio",
    ]
    for i, rnd in enumerate(r["rounds"], 1):
        g, b = rnd["gateway"], rnd["bare"]
        lines.append(
            f"{i:5d}  {g['rate']:13.0f}  {g['p50_ms']:6.2f}  {g['p99_ms']:6.2f}"
            f"  {g['cpu_ms']:10.2f} ({g['loop_cpu_ms']:.2f}) |"
            f"  {b['rate']:10.0f}  {b['p50_ms']:6.2f}  {b['p99_ms']:6.2f}  {b['cpu_ms']:10.2f} |"
            f"  {rnd['ratio']:.2f}"
        )
    hg, hb = r["half_rate"]["gateway"], r["half_rate"]["bare"]
    lines += [
        f"median max rate: gateway {r['gateway_max_rps']:.0f} req/s, bare {r['bare_max_rps']:.0f} req/s,"
        f" ratio {r['ratio']:.2f} (target >= 0.30);"
        f" server CPU per request, bare/gateway: {r['cpu_ratio']:.2f};"
        f" gateway event-loop thread CPU per request: {r['loop_cpu_ms']:.3f} ms",
        f"at half max: gateway {hg['rate']:.0f} req/s p50 {hg['p50_ms']:.2f} ms p99 {hg['p99_ms']:.2f} ms"
        f" (target p99 < 20 ms){kept_pace(hg)};"
        f" bare {hb['rate']:.0f} req/s p50 {hb['p50_ms']:.2f} ms p99 {hb['p99_ms']:.2f} ms{kept_pace(hb)}",
        *(
            [f"gateway requests over 20 ms at half max: {r['slow_requests']}", *r["blame"]]
            if r["blame"] or r["slow_requests"]
            else []
        ),
        *(
            [
                f"gateway's generation-2 collections under load: {len(r['full_collections'])}"
                f" ({' '.join(f'{1000 * s:.0f}' for s in r['full_collections'])} ms)"
            ]
            if r["blame"] or r["full_collections"]
            else []
        ),
        f"gateway peak RSS: {r['gateway_peak_rss_mb']:.1f} MB (target < 200 MB)",
        f"rolls answered {r['rolls_answered']}, roll-log rows {r['rolls_logged']},"
        f" Storyteller-log rows {r['stlog_rows']} (every roll durably logged:"
        f" {r['rolls_answered'] == r['rolls_logged'] == r['stlog_rows']})",
    ]
    return "\n".join(lines)


def runs_summary(results: list[dict[str, Any]]) -> str:
    """Each run's half-load p99 and ratio, and whether every run met the targets."""
    p99s = [r["half_rate"]["gateway"]["p99_ms"] for r in results]
    ratios = [r["ratio"] for r in results]
    loop_cpu = [r["loop_cpu_ms"] for r in results]
    return (
        f"{len(results)} runs, Storyteller-log pushes queued={results[0]['stlog']}:"
        f" half-load p99 ms {' '.join(f'{p:.1f}' for p in p99s)}"
        f" (every one < 20 ms: {all(p < 1000 * HALF_LOAD_P99_TARGET for p in p99s)});"
        f" ratio {' '.join(f'{x:.2f}' for x in ratios)} (median {statistics.median(ratios):.2f});"
        f" event-loop CPU ms per request {' '.join(f'{x:.3f}' for x in loop_cpu)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.bench.secondlife", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="seconds per measurement (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating max-rate rounds (default 3)")
    parser.add_argument("--concurrency", type=int, default=16, help="requests in flight (default 16)")
    parser.add_argument("--json", action="store_true", help="print the raw figures as JSON too")
    parser.add_argument(
        "--group-commit",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the gateway's [vault] group_commit (default on here, as recommended for Second Life)",
    )
    parser.add_argument(
        "--stlog",
        action=argparse.BooleanOptionalAction,
        default=None,
        help='only with (or only without) [stlog] targets = ["secondlife:st-huds"]: each roll also'
        " queues a Storyteller-log push (default: both, one after the other)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="whole runs (new vault, new servers) per setting (default 1)"
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="time the gateway's loop callbacks and collections; show those that ran while a"
        " half-load request took over 20 ms",
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="cProfile the gateway process (CPU time) into FILE (pstats)"
    )
    parser.add_argument(
        "--state",
        action="store_true",
        help='every request asks for the HUD state ("state": true), as the Player HUD does',
    )
    parser.add_argument("--vault-url", help="a PostgreSQL vault to run the gateway on (default: SQLite)")
    parser.add_argument("--serve-gateway", nargs=2, metavar=("PORT", "VAULT"), help=argparse.SUPPRESS)
    parser.add_argument("--serve-bare", metavar="PORT", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_gateway:
        port, vault = args.serve_gateway
        stlog = bool(args.stlog)
        served = serve_gateway(int(port), vault, args.group_commit, stlog, args.trace, args.profile)
        asyncio.run(served)
        return
    if args.serve_bare:
        asyncio.run(serve_bare(int(args.serve_bare)))
        return
    for stlog in (False, True) if args.stlog is None else (args.stlog,):
        results = []
        for _ in range(args.runs):
            result = asyncio.run(
                run(
                    args.seconds,
                    args.rounds,
                    args.concurrency,
                    args.group_commit,
                    stlog,
                    args.vault_url,
                    args.trace,
                    args.profile,
                    args.state,
                )
            )
            results.append(result)
            print(report(result), flush=True)
            if args.json:
                print(json.dumps(result, indent=2))
        if args.runs > 1:
            print(runs_summary(results), flush=True)


if __name__ == "__main__":
    main()
