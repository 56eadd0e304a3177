"""Real ``gateway serve`` processes for the fault campaign, and their vault.

Every process is started in its own session and recorded in ``LIVE``; ``kill_all`` (also run at
exit) sends SIGKILL to each process group still there, so no gateway outlives the campaign, whether
it ends normally, by an exception or by Ctrl-C.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp
from sqlalchemy import func, text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlmodel import select

from gateway.delivery.leases import Leases
from gateway.vault import Vault
from gateway.vault.migrate import upgrade as migrate_vault
from gateway.vault.models import OutboxRow, RollLog
from tests.fault.fakes import FakeTarget, free_port
from tests.irc.lineclient import LineClient
from tests.secondlife.harness import SECRET

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "fault-campaign-token-0123456789"
LIVE: set[subprocess.Popen[bytes]] = set()


def kill_all() -> None:
    for proc in list(LIVE):
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
        LIVE.discard(proc)


atexit.register(kill_all)


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(value)


def gateway_config(
    vault_url: str,
    discord: FakeTarget | None,
    secondlife: FakeTarget | None,
    *,
    group_commit: bool = False,
    outbox: dict[str, Any] | None = None,
    timeout: float = 2.0,
    failover: float = 15.0,
) -> dict[str, dict[str, Any]]:
    """Settings for one campaign gateway: the HTTP API with one token, the Storyteller log to the
    fakes, short delivery timeouts (a hung target costs ``timeout`` seconds per attempt)."""
    targets = []
    tables: dict[str, dict[str, Any]] = {
        "vault": {"url": vault_url, "group_commit": group_commit},
        "http": {"host": "127.0.0.1"},
        "http.tokens": {"load": TOKEN},
        "log": {"format": "json", "level": "info"},
        "outbox": {"poll_interval": 0.2, **(outbox or {})},
        "cluster": {"failover_seconds": failover},
    }
    if secondlife is not None:
        tables["vault"]["owner"] = f"sl:{secondlife.owner_key}"
        tables["secondlife"] = {
            "shared_secret": SECRET,
            "push_timeout": timeout,
            # The campaign's one HUD registers once; commands come through the HTTP API.
            "rate_burst": 1000,
            "rate_per_second": 1000.0,
        }
        targets.append("secondlife:st-huds")
    if discord is not None:
        tables["discord"] = {
            "api_base": discord.api_base,
            "request_timeout": timeout,
            # The fake sends no rate-limit headers and the safety caps would pace 30 posts a
            # minute: off, so the campaign measures the outbox and not Discord's limits.
            "webhook_cap": {"requests": 0, "seconds": 1},
            "channel_cap": {"requests": 0, "seconds": 1},
        }
        tables["discord.webhooks"] = {"stlog": discord.webhook_url}
        targets.append("discord:stlog")
    tables["stlog"] = {"targets": targets}
    return tables


def render_config(tables: dict[str, dict[str, Any]]) -> str:
    lines = []
    for name, table in tables.items():
        lines.append(f"[{name}]")
        for key, value in table.items():
            if isinstance(value, dict):
                inner = ", ".join(f"{k} = {_toml(v)}" for k, v in value.items())
                lines.append(f"{key} = {{ {inner} }}")
            else:
                lines.append(f"{key} = {_toml(value)}")
        lines.append("")
    return "\n".join(lines)


def _limit_files(count: int) -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, count))


@dataclass
class GatewayProc:
    """One ``gateway serve`` subprocess on a fixed loopback port (kept across restarts)."""

    name: str
    config: Path
    workdir: Path
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    starts: int = 0
    kills: list[float] = field(default_factory=list)  # wall times of kill -9
    exits: list[str] = field(default_factory=list)  # unexpected exits seen
    nofile: int | None = None  # RLIMIT_NOFILE (soft and hard) for the process, as ``ulimit -n``

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.workdir / f"{self.name}.log"

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    async def start(self, ready_timeout: float = 60.0) -> None:
        assert not self.alive()
        self.starts += 1
        log = self.log_path.open("ab")
        log.write(f"--- start {self.starts} at {time.time():.3f}\n".encode())
        log.flush()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gateway",
                "--config",
                str(self.config),
                "serve",
                "--port",
                str(self.port),
            ],
            cwd=self.workdir,
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=None if self.nofile is None else partial(_limit_files, self.nofile),
            # The python running this already has the gateway's dependencies: no venv bootstrap.
            env={**os.environ, "PYTHONPATH": str(ROOT), "GATEWAY_NO_VENV": "1"},
        )
        log.close()
        LIVE.add(self.proc)
        await self.wait_ready(ready_timeout)

    async def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=2)) as http:
            while time.monotonic() < deadline:
                if not self.alive():
                    raise RuntimeError(f"{self.name} exited at start; see {self.log_path}")
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with http.get(self.url + "/healthz") as response:
                        if response.status == 200:
                            return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"{self.name} not ready after {timeout}s; see {self.log_path}")

    def kill9(self) -> None:
        assert self.proc is not None
        self.kills.append(time.time())
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        LIVE.discard(self.proc)

    async def stop(self, grace: float = 15.0) -> None:
        """SIGTERM (a clean shutdown), then SIGKILL after ``grace``."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while self.proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        LIVE.discard(self.proc)

    def check_exit(self) -> None:
        """Record an exit nobody asked for (a crash), once."""
        if self.proc is not None and self.proc.poll() is not None and self.proc in LIVE:
            LIVE.discard(self.proc)
            self.exits.append(f"exit code {self.proc.returncode}")


def upgrade(config: Path, workdir: Path) -> None:
    """``gateway db upgrade`` (PostgreSQL vaults are not upgraded by ``serve``)."""
    subprocess.run(
        [sys.executable, "-m", "gateway", "--config", str(config), "db", "upgrade"],
        cwd=workdir,
        check=True,
        capture_output=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )


async def _admin(base_url: str, sql: str) -> None:
    engine = create_async_engine(base_url, isolation_level="AUTOCOMMIT")
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


async def create_database(base_url: str) -> str:
    name = f"gw_fault_{uuid.uuid4().hex[:12]}"
    await _admin(base_url, f'CREATE DATABASE "{name}"')
    return base_url.rsplit("/", 1)[0] + "/" + name


async def drop_database(base_url: str, url: str) -> None:
    name = url.rsplit("/", 1)[1]
    await _admin(base_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# --------------------------------------------------------------------------- three-process tests, bench


def serve_tables(
    vault_url: str,
    *,
    failover: float,
    stlog: Sequence[str] = (),
    log_level: str = "info",
    **sections: dict[str, Any],
) -> dict[str, dict[str, Any]]:
    """Settings for one ``gateway serve`` of a cluster: the HTTP API with ``TOKEN``, the Storyteller
    log to ``stlog``, a quick outbox poll, and any platform tables (``irc.test={...}``)."""
    return {
        "vault": {"url": vault_url},
        "http": {"host": "127.0.0.1"},
        "http.tokens": {"load": TOKEN},
        "log": {"format": "json", "level": log_level},
        "outbox": {"poll_interval": 0.2},
        "cluster": {"failover_seconds": failover},
        "stlog": {"targets": list(stlog)},
        **{name.replace("__", "."): table for name, table in sections.items()},
    }


def cluster(workdir: Path, count: int, tables: dict[str, dict[str, Any]]) -> list[GatewayProc]:
    """``count`` processes on one config file (each gets its own port from ``serve --port``)."""
    config = workdir / "gateway.toml"
    config.write_text(render_config(tables))
    return [GatewayProc(f"g{i}", config, workdir) for i in range(count)]


def irc_network(port: int, **settings: Any) -> dict[str, Any]:
    """An ``[irc.<name>]`` table for a test server on loopback, without TLS and channels of its own."""
    return {"host": "127.0.0.1", "port": port, "tls": False, "channels": [], **settings}


async def migrate(vault_url: str) -> None:
    """``gateway db upgrade`` in this process (``serve`` does not upgrade a PostgreSQL vault)."""
    vault = Vault(vault_url)
    try:
        await migrate_vault(vault)
    finally:
        await vault.dispose()


async def start_all(procs: Sequence[GatewayProc]) -> None:
    await asyncio.gather(*(p.start() for p in procs))


async def stop_all(procs: Sequence[GatewayProc]) -> None:
    await asyncio.gather(*(p.stop(grace=5) for p in procs))


async def lease_pid(vault_url: str, name: str) -> int | None:
    """The pid of the process that holds lease ``name`` now (owner ``hostname:pid:random``)."""
    vault = Vault(vault_url)
    try:
        holder = await Leases(vault).current(name)
    finally:
        await vault.dispose()
    if holder is None or holder.expires_at < datetime.now(UTC):
        return None
    return int(holder.owner.split(":")[1])


async def roll_ids(vault_url: str) -> list[str]:
    """Public ids of every roll in the roll log: every one owes one Storyteller-log line."""
    vault = Vault(vault_url)
    try:
        async with vault.transaction() as session:
            return [str(p) for p in (await session.exec(select(RollLog.public_id))).all()]
    finally:
        await vault.dispose()


async def pending_rows(vault_url: str, platform: str) -> int:
    vault = Vault(vault_url)
    try:
        async with vault.transaction() as session:
            query = select(func.count()).select_from(OutboxRow)
            query = query.where(OutboxRow.platform == platform, OutboxRow.status == "pending")
            return int((await session.exec(query)).one())
    finally:
        await vault.dispose()


async def drain(vault_url: str, platform: str, timeout: float) -> bool:
    """Wait until no row for ``platform`` is pending; False if some still are after ``timeout``."""
    deadline = time.monotonic() + timeout
    while await pending_rows(vault_url, platform):
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)
    return True


def cpu_seconds(pid: int) -> float:
    """utime + stime of one process (``/proc/<pid>/stat``; the name field may hold spaces)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Sent:
    """One ``roll`` through ``POST /api/v1/command``: where, when, and the roll id answered."""

    proc: str
    sent: float  # time.monotonic()
    answered: float | None = None
    roll_id: str | None = None
    error: str | None = None


async def api_roll(http: aiohttp.ClientSession, proc: GatewayProc, name: str, text: str = "roll 5") -> Sent:
    """One command; a request cut off (the process was killed) is recorded, not retried."""
    sent = Sent(proc.name, time.monotonic())
    body = {"text": text, "channel": "cluster", "name": name}
    try:
        async with http.post(
            proc.url + "/api/v1/command", json=body, headers={"Authorization": f"Bearer {TOKEN}"}
        ) as response:
            data = await response.json(content_type=None)
            if response.status != 200:
                sent.error = f"HTTP {response.status}"
                return sent
    except (aiohttp.ClientError, TimeoutError, ValueError) as exc:
        sent.error = type(exc).__name__
        return sent
    sent.answered = time.monotonic()
    for reply in data.get("replies") or []:
        result = reply.get("result") or {}
        if result.get("kind") == "roll" and result.get("id"):
            sent.roll_id = str(result["id"])
    return sent


class Roller:
    """Rolls through the HTTP API, one in flight, to the live processes in turn."""

    def __init__(self, procs: Sequence[GatewayProc]) -> None:
        self.procs = procs
        self.dead: set[str] = set()  # names of processes not to send to (about to be killed)
        self.sent: list[Sent] = []
        self._turn = itertools.count()

    async def one(self, http: aiohttp.ClientSession) -> Sent:
        live = [p for p in self.procs if p.name not in self.dead]
        sent = await api_roll(http, live[next(self._turn) % len(live)], f"r{len(self.sent)}")
        self.sent.append(sent)
        return sent

    async def forever(self, http: aiohttp.ClientSession, gap: float = 0.03) -> None:
        while True:
            await self.one(http)
            await asyncio.sleep(gap)

    async def until(self, count: int) -> None:
        """Wait until ``count`` rolls have been sent in all (by ``forever``)."""
        while len(self.sent) < count:
            await asyncio.sleep(0.05)


@dataclass
class Sample:
    at: float  # loop time (time.monotonic) of the server's answer
    clients: int  # LUSERS: every connection the server has, registered or not
    registered: bool  # ISON: the bot's nick is registered


class ServerCount:
    """What the IRC server itself counts, sampled every ``interval`` by a probe client of its own:
    ``LUSERS`` (miniircd answers with every socket it holds, registration finished or not) and
    ``ISON <nick>``. ``bot(sample)`` is the connections that are not the test's own clients."""

    def __init__(self, port: int, nick: str = "nightcap", interval: float = 0.02) -> None:
        self.port, self.nick, self.interval = port, nick, interval
        self.samples: list[Sample] = []
        self.own = 0  # the test's own connections to the server, the probe included
        self._client: LineClient | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._client = LineClient(self.port, f"probe{os.getpid() % 10000}")
        await self._client.connect()
        self.own += 1
        self._task = asyncio.create_task(self._run())
        await self.fresh()

    async def _run(self) -> None:
        client = self._client
        assert client is not None
        while True:
            await client.send(f"LUSERS\r\nISON {self.nick}")
            users = await client.wait_for(lambda ln: ln.command == "251")
            ison = await client.wait_for(lambda ln: ln.command == "303")
            count = int(users.text.split()[2])  # "There are N users and 0 services on 1 server"
            self.samples.append(Sample(users.at, count, self.nick in ison.text.split()))
            del client.lines[: client.cursor]
            client.cursor = 0
            await asyncio.sleep(self.interval)

    async def fresh(self, after: float | None = None, timeout: float = 10.0) -> Sample:
        """The first sample taken after ``after`` (default: now)."""
        after = time.monotonic() if after is None else after
        deadline = after + timeout
        while not (self.samples and self.samples[-1].at > after):
            assert time.monotonic() < deadline, "the probe got no answer from the IRC server"
            await asyncio.sleep(0.005)
        return self.samples[-1]

    def bot(self, sample: Sample) -> int:
        return sample.clients - self.own

    async def until(self, check: Callable[[Sample], bool], timeout: float) -> Sample:
        """The first sample from now on for which ``check`` holds."""
        seen = len(self.samples)
        deadline = time.monotonic() + timeout
        while True:
            for sample in self.samples[seen:]:
                if check(sample):
                    return sample
            seen = len(self.samples)
            if time.monotonic() > deadline:
                raise TimeoutError("the IRC server never showed the condition")
            await asyncio.sleep(0.005)

    async def calibrate(self, hold: float = 0.1) -> int:
        """Open one more connection for ``hold`` seconds: how many samples saw it. A sampler that
        sees this sees any overlap of two bot connections that lasts as long."""
        _, writer = await asyncio.open_connection("127.0.0.1", self.port)
        opened = time.monotonic()
        await asyncio.sleep(hold)
        closed = time.monotonic()
        writer.close()
        await self.until(lambda s: self.bot(s) == 0, timeout=5)
        return sum(1 for s in self.samples if opened < s.at < closed and self.bot(s) >= 1)

    def max_gap(self, since: float = 0.0) -> float:
        times = [s.at for s in self.samples if s.at >= since]
        return max((b - a for a, b in itertools.pairwise(times)), default=0.0)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._client is not None:
            await self._client.close()


class SlowHandover(AssertionError):
    """A Storyteller-log line reached the server later than it should after the API's reply,
    although every process was up (see ``check_handover``)."""


HANDOVER_MEDIAN = 0.1  # what the issue asks: a row queued by one process delivered within 100 ms
HANDOVER_LIMIT = 1.0


def check_handover(delays: dict[str, float]) -> None:
    """Raise ``SlowHandover`` unless the lines (roll id -> seconds from the reply to the server) came
    within ``HANDOVER_MEDIAN`` at the median and each within ``HANDOVER_LIMIT``: ten times the
    issue's figure, so a loaded machine does not fail it, while a row handed back for a second by a
    process without the connection (as before ``Elsewhere``) holds its target's queue behind it and
    does."""
    if not delays:
        return
    median = statistics.median(delays.values())
    late = {r: round(d, 3) for r, d in delays.items() if d > HANDOVER_LIMIT}
    if median > HANDOVER_MEDIAN or late:
        raise SlowHandover(
            f"median {median:.3f} s (at most {HANDOVER_MEDIAN} s); {len(late)} of {len(delays)} lines "
            f"later than {HANDOVER_LIMIT} s after the reply: "
            + ", ".join(f"#{r} {d} s" for r, d in sorted(late.items(), key=lambda x: -x[1])[:8])
        )


def delay_figures(delays: dict[str, float]) -> str:
    values = sorted(delays.values())
    if not values:
        return "no lines"
    p50, top = statistics.median(values), values[-1]
    return f"{len(values)} lines, reply to server p50 {p50 * 1000:.0f} ms, max {top * 1000:.0f} ms"
