"""Idle sockets against a real ``gateway serve`` under a low open-file limit (issue 30, item 1).

``.venv/bin/python -m tests.fault.sockets [--nofile 1024] [--idle 1100] [--slow 300] [--hold 60]``
starts one gateway with ``RLIMIT_NOFILE`` at ``--nofile`` (soft = hard, so it cannot raise it), opens
``--idle`` connections that never send a byte and ``--slow`` ones that drip a request head one byte a
second, and for ``--hold`` seconds sends real requests (``/healthz`` and a command over the HTTP API)
from a client of its own. It reports how many were served, their latency, how many idle sockets the
gateway closed, and how many bytes of log the gateway wrote meanwhile. Before the connection cap, 1,100
idle sockets under 1,024 descriptors made every request time out and 296 MB of log in 60 s.
``test_idle_sockets.py`` is the CI-sized slice.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

from tests.fault.cluster import TOKEN, GatewayProc, kill_all, render_config, serve_tables


@dataclass
class SocketsReport:
    nofile: int
    idle: int
    slow: int
    opened: int = 0  # idle and slow connections the kernel accepted
    closed_by_gateway: int = 0  # of those, closed by the gateway before the end
    requests: int = 0
    served: int = 0
    failures: list[str] = field(default_factory=list)
    latencies_ms: list[float] = field(default_factory=list)
    log_bytes: int = 0  # written by the gateway while the sockets were held
    seconds: float = 0.0

    def p(self, q: float) -> float:
        if not self.latencies_ms:
            return float("nan")
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def render(self) -> str:
        median = statistics.median(self.latencies_ms) if self.latencies_ms else float("nan")
        return "\n".join(
            [
                f"== idle sockets: ulimit -n {self.nofile},"
                f" {self.idle} silent + {self.slow} slow connections",
                f"   connections opened {self.opened}, closed by the gateway {self.closed_by_gateway}",
                f"   requests served {self.served}/{self.requests} in {self.seconds:.1f} s"
                f" (p50 {median:.1f} ms, p99 {self.p(0.99):.1f} ms)",
                f"   gateway log meanwhile: {self.log_bytes} bytes",
                *(f"   failure: {f}" for f in self.failures[:5]),
            ]
        )


async def _open(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    opened = []
    for _ in range(count):
        try:
            opened.append(await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5))
        except (OSError, TimeoutError):
            break
    return opened


async def _drip(writer: asyncio.StreamWriter, stop: asyncio.Event) -> None:
    """A slow client: a request head, one byte a second, never finished."""
    head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4096
    with contextlib.suppress(OSError, ConnectionError):
        for byte in head:
            if stop.is_set() or writer.is_closing():
                return
            writer.write(bytes([byte]))
            await writer.drain()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)


def _closed(reader: asyncio.StreamReader) -> bool:
    return reader.at_eof() or reader.exception() is not None


async def _watch(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(OSError, ConnectionError):
        await reader.read(65536)  # returns b"" when the gateway closes it (a 408 or nothing)


async def run(
    nofile: int, idle: int, slow: int, hold: float, idle_timeout: float, workdir: Path
) -> SocketsReport:
    report = SocketsReport(nofile, idle, slow)
    tables = serve_tables(f"sqlite+aiosqlite:///{workdir / 'vault.db'}", failover=15.0)
    tables["http"]["idle_timeout"] = idle_timeout
    config = workdir / "gateway.toml"
    config.write_text(render_config(tables))
    proc = GatewayProc("g0", config, workdir, nofile=nofile)
    await proc.start()
    stop = asyncio.Event()
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    watchers: list[asyncio.Task[None]] = []
    drips: list[asyncio.Task[None]] = []
    try:
        log_before = proc.log_path.stat().st_size
        started = time.monotonic()
        held = await _open(proc.port, idle)
        slow_held = await _open(proc.port, slow)
        report.opened = len(held) + len(slow_held)
        drips = [asyncio.create_task(_drip(w, stop)) for _, w in slow_held]
        held += slow_held
        watchers = [asyncio.create_task(_watch(r)) for r, _ in held]
        timeout = aiohttp.ClientTimeout(total=10)
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with aiohttp.ClientSession(timeout=timeout) as http:
            while True:
                for method, path, body in (("GET", "/healthz", None), ("POST", "/api/v1/command", "roll 3")):
                    report.requests += 1
                    began = time.perf_counter()
                    try:
                        kwargs = {"json": {"text": body}, "headers": headers} if body else {}
                        async with http.request(method, proc.url + path, **kwargs) as response:
                            await response.read()
                            if response.status == 200:
                                report.served += 1
                                report.latencies_ms.append((time.perf_counter() - began) * 1000)
                            else:
                                report.failures.append(f"{method} {path}: {response.status}")
                    except (aiohttp.ClientError, TimeoutError) as exc:
                        report.failures.append(f"{method} {path}: {type(exc).__name__}")
                if time.monotonic() - started >= hold:
                    break
                await asyncio.sleep(0.2)
        report.seconds = time.monotonic() - started
        # The last sockets opened may be younger than the idle timeout: give each its full timeout
        # (and as much again for a loaded machine) to be closed, then count.
        deadline = time.monotonic() + 2 * idle_timeout + 0.2
        while time.monotonic() < deadline and not all(_closed(r) for r, _ in held):
            await asyncio.sleep(0.1)
        report.closed_by_gateway = sum(_closed(r) for r, _ in held)
        report.log_bytes = proc.log_path.stat().st_size - log_before
    finally:
        stop.set()
        for task in [*watchers, *drips]:
            task.cancel()
        for _, writer in held:
            writer.close()
        await proc.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fault.sockets", description=__doc__)
    parser.add_argument("--nofile", type=int, default=1024, help="the gateway's ulimit -n (default 1024)")
    parser.add_argument("--idle", type=int, default=1100, help="silent connections (default 1100)")
    parser.add_argument("--slow", type=int, default=300, help="connections dripping a head (default 300)")
    parser.add_argument("--hold", type=float, default=60.0, help="seconds to hold them (default 60)")
    parser.add_argument("--idle-timeout", type=float, default=15.0, help="[http] idle_timeout (default 15)")
    args = parser.parse_args(argv)
    try:
        with tempfile.TemporaryDirectory(prefix="gw-sockets-") as tmp:
            sockets = run(args.nofile, args.idle, args.slow, args.hold, args.idle_timeout, Path(tmp))
            report = asyncio.run(sockets)
    finally:
        kill_all()
    print(report.render())
    return 0 if report.served == report.requests else 1


if __name__ == "__main__":
    sys.exit(main())
