"""Real ``gateway serve`` processes for the fault campaign, and their vault.

Every process is started in its own session and recorded in ``LIVE``; ``kill_all`` (also run at
exit) sends SIGKILL to each process group still there, so no gateway outlives the campaign, whether
it ends normally, by an exception or by Ctrl-C.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import os
import signal
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from tests.fault.fakes import FakeTarget, free_port
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
            env={**os.environ, "PYTHONPATH": str(ROOT)},
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
