"""``gateway status`` reads the vault: every process's heartbeat row (alive or gone), the leases and
their owners, each adapter's state, and the outbox backlog. Two ``Gateway`` objects on one vault URL
are two processes."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlmodel import select

from gateway.core.app import Gateway
from gateway.core.settings import Settings
from gateway.delivery import queue
from gateway.delivery.leases import Lease
from gateway.ops.status import gather, render, run_cli
from gateway.testing import FakeAdapter, eventually
from gateway.vault.models import ProcessRow
from gateway.vault.prepared import Prepared

# Subprocesses run this checkout's code, whatever the current directory and the installed checkout.
ROOT = str(Path(__file__).resolve().parents[2])


class Connected(FakeAdapter):
    def status(self) -> dict[str, object]:
        return {"networks": {"main": {"owned": True, "connected": True, "channels": ["#game"]}}}


Start = Callable[[], Awaitable[Gateway]]


@pytest.fixture
async def start(vault_url: str) -> AsyncIterator[Start]:
    running: list[Gateway] = []

    async def make() -> Gateway:
        fake = Connected("fake")
        gateway = Gateway(
            Settings(vault={"url": vault_url}), extra_plugins=[fake.plugin()], platforms=("fake",)
        )
        await gateway.upgrade_vault()
        await gateway.start()
        running.append(gateway)
        return gateway

    yield make
    for gateway in reversed(running):
        await gateway.stop()


async def run_status(url: str, *args: str) -> tuple[int, str, str]:
    """The real command, as an operator types it."""
    env = {**os.environ, "GATEWAY_VAULT_URL": url, "GATEWAY_NO_VENV": "1", "PYTHONPATH": ROOT}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "gateway",
        "status",
        *args,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def hold(gateway: Gateway, name: str) -> asyncio.Task[None]:
    async def work(lease: Lease) -> None:
        await asyncio.Future()

    task = asyncio.create_task(gateway.services.leases.run(name, work))
    await eventually(lambda: name in gateway.services.leases.held, timeout=10)
    return task


async def test_status_shows_both_processes_the_lease_owner_and_the_outbox(
    start: Start, vault_url: str
) -> None:
    a, b = await start(), await start()
    owner = await hold(a, "irc:main")
    try:
        vault = a.services.vault
        async with vault.unit() as unit:
            for n in range(3):
                await queue.enqueue(unit, "nowhere", "far/away", {"kind": "reply", "text": f"row {n}"})
            await queue.enqueue(unit, "nowhere", "elsewhere", {"kind": "reply", "text": "gave up"})
        async with vault.unit() as unit:
            await unit.execute(
                Prepared(text("UPDATE outbox SET status = 'dead' WHERE target = 'elsewhere'")), {}
            )
        now = datetime.now(UTC)
        async with vault.transaction() as session:
            for name, seen in (
                ("ghost:1:dead", timedelta(minutes=1)),
                ("ancient:2:gone", timedelta(hours=2)),
            ):
                session.add(
                    ProcessRow(
                        id=name, host="old", pid=1, version="0.0.1", started_at=now - seen, seen_at=now - seen
                    )
                )
        await a.heartbeat.beat()  # now, with the lease it holds; and prunes the ancient row
        code, out, err = await run_status(vault_url, "--json")
    finally:
        owner.cancel()
    assert code == 0, err
    report = json.loads(out)
    processes = {p["id"]: p for p in report["processes"]}
    assert set(processes) == {a.heartbeat.id, b.heartbeat.id, "ghost:1:dead"}
    assert processes[a.heartbeat.id]["state"] == processes[b.heartbeat.id]["state"] == "alive"
    assert processes["ghost:1:dead"]["state"] == "gone"
    # (Other work may run under leases too, the outbox sweeper's: only ours is looked at.)
    assert processes[a.heartbeat.id]["leases"]["irc:main"] == {"epoch": 1}
    assert "irc:main" not in processes[b.heartbeat.id]["leases"]
    assert processes[b.heartbeat.id]["adapters"] == {
        "fake": {"networks": {"main": {"owned": True, "connected": True, "channels": ["#game"]}}}
    }
    assert processes[a.heartbeat.id]["pid"] == os.getpid()
    [lease] = [lease for lease in report["leases"] if lease["name"] == "irc:main"]
    assert (lease["owner"], lease["epoch"], lease["held"]) == (a.heartbeat.id, 1, True)
    nowhere = report["outbox"]["nowhere"]
    assert (nowhere["pending"], nowhere["dead"]) == (3, 1)
    assert [(t["target"], t["pending"], t["dead"]) for t in nowhere["targets"]] == [
        ("elsewhere", 0, 1),
        ("far/away", 3, 0),
    ]
    assert nowhere["targets"][0]["oldest_pending_age"] is None
    assert 0 <= nowhere["oldest_pending_age"] < 60
    assert "password" not in out


async def test_status_text_is_an_aligned_report(start: Start, vault_url: str) -> None:
    a = await start()
    owner = await hold(a, "matrix:bot")
    try:
        await a.heartbeat.beat()
        report = await gather(Settings(vault={"url": vault_url}))
    finally:
        owner.cancel()
    lines = render(report)
    assert lines[0].startswith("vault  ") and "the vault is at 0013_character_profile" in lines[0]
    at = lines.index("processes  1 alive, 0 gone")
    header, row = lines[at + 1], lines[at + 2]
    assert header.split() == ["ID", "HOST", "PID", "VERSION", "STATE", "SEEN", "LEASES"]
    assert row.split()[0] == a.heartbeat.id and row.split()[4] == "alive"
    assert header.index("STATE") == row.index("alive")  # columns line up
    assert any(line.split()[:3] == ["matrix:bot", a.heartbeat.id, "1"] for line in lines)
    assert f"  {a.heartbeat.id}  fake      networks: main: owned=yes connected=yes channels=#game" in lines
    assert lines[-3:-1] == ["outbox  0 pending, 0 dead", "  (none)"]
    assert lines[-1].startswith("charts  odds pictures drawn with /")  # this machine has DejaVu Sans


async def test_a_process_deletes_its_row_on_a_clean_stop(start: Start) -> None:
    a = await start()
    vault = a.services.vault

    async def rows() -> list[str]:
        async with vault.transaction() as session:
            return [row.id for row in (await session.exec(select(ProcessRow))).all()]

    assert await rows() == [a.heartbeat.id]
    b = Gateway(a.settings)
    await b.start()
    assert sorted(await rows()) == sorted([a.heartbeat.id, b.heartbeat.id])
    await b.stop()
    assert await rows() == [a.heartbeat.id]


def test_status_of_a_vault_that_is_not_there_or_not_migrated_exits_2(
    vault_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(json=True)
    if make_url(vault_url).get_backend_name() == "sqlite":
        path = Path(str(make_url(vault_url).database))
        assert run_cli(args, Settings(vault={"url": vault_url})) == 2
        assert capsys.readouterr().err == f"gateway status: no vault at {path}\n"
        assert not path.exists()  # and it made none
        sqlite3.connect(path).close()
    assert run_cli(args, Settings(vault={"url": vault_url})) == 2
    assert capsys.readouterr().err == "gateway status: the vault is not migrated: run gateway db upgrade\n"
    nowhere = "postgresql+asyncpg://nobody:secret@127.0.0.1:9/none"
    assert run_cli(args, Settings(vault={"url": nowhere})) == 2
    err = capsys.readouterr().err
    assert err.startswith("gateway status: the vault cannot be reached: ") and err.count("\n") == 1
    assert "secret" not in err


def test_a_served_gateway_is_ready_scraped_listed_and_gone_from_the_list_after_sigterm(
    tmp_path: Path,
) -> None:
    """``gateway serve`` as deployed: /readyz, /metrics from loopback, its row in ``gateway status``,
    and that row deleted on a clean stop (SIGTERM)."""
    port = _free_port()
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    env = {**os.environ, "GATEWAY_NO_VENV": "1", "GATEWAY_VAULT_URL": url, "PYTHONPATH": ROOT}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def status() -> dict[str, Any]:
        done = subprocess.run(
            [sys.executable, "-m", "gateway", "status", "--json"], env=env, capture_output=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        return dict(json.loads(done.stdout))

    try:
        deadline = time.monotonic() + 30
        while _get(port, "/readyz")[0] != 200:
            assert time.monotonic() < deadline, "never ready"
            time.sleep(0.1)
        code, body = _get(port, "/metrics")
        assert code == 200 and "# TYPE gateway_commands_total counter" in body
        [process] = status()["processes"]
        assert (process["pid"], process["state"]) == (proc.pid, "alive")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    assert status()["processes"] == []


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()
    except OSError:
        return 0, ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_status_says_what_waits_and_why(vault_url: str) -> None:
    """Issue 30, item 3: the head of each waiting queue with its failed attempts, its last error and
    when it is tried next; a target that merely waits its turn says nothing."""
    gateway = Gateway(Settings(vault={"url": vault_url}), platforms=())
    await gateway.upgrade_vault()
    vault = gateway.services.vault
    try:
        async with vault.unit() as unit:
            for n in range(2):
                await queue.enqueue(unit, "secondlife", "st-huds", {"kind": "stlog", "text": f"line {n}"})
            await queue.enqueue(unit, "discord", "stlog", {"kind": "stlog", "text": "due"})
        later = datetime.now(UTC) + timedelta(seconds=90)
        async with vault.unit() as unit:
            await unit.execute(
                Prepared(
                    text(
                        "UPDATE outbox SET attempts = 7, last_error = 'connection refused', "
                        "next_attempt_at = :later WHERE id = (SELECT min(id) FROM outbox)"
                    ).bindparams(later=later.replace(tzinfo=None))
                ),
                {},
            )
        report = await gather(Settings(vault={"url": vault_url}))
        queued = await queue.backlog(vault)  # what the outbox itself reports, by its own queries
    finally:
        await vault.dispose()
    # status reads with plain SQL of its own: the same rows as ``queue.backlog``
    assert sorted(
        (platform, t["target"], t["pending"], t["dead"], t["attempts"], t["last_error"])
        for platform, entry in report["outbox"].items()
        for t in entry["targets"]
    ) == sorted((b.platform, b.target, b.pending, b.dead, b.attempts, b.last_error) for b in queued)
    [huds] = report["outbox"]["secondlife"]["targets"]
    assert (huds["pending"], huds["attempts"], huds["last_error"]) == (2, 7, "connection refused")
    assert 60 < huds["due_in"] <= 90
    [stlog] = report["outbox"]["discord"]["targets"]
    assert (stlog["attempts"], stlog["last_error"], stlog["due_in"]) == (0, None, 0.0)
    lines = render(report)
    header = next(line for line in lines if line.split()[:2] == ["PLATFORM", "TARGET"])
    assert header.split()[-2:] == ["NEXT", "WHY"]
    row = next(line for line in lines if "st-huds" in line)
    assert "connection refused (after 7 failed attempts)" in row
    assert " in 1m2" in row or " in 1m1" in row  # 90 s from the update, minus the time since
    due = next(line for line in lines if line.split()[:2] == ["discord", "stlog"])
    assert due.split()[-2:] == ["now", "-"]
