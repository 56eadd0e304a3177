"""Two real ``gateway serve`` processes on one vault and one miniircd; the owner is killed with
SIGKILL (nothing released, nothing said to the server but what the kernel does) and the standby
takes the network over within ``[cluster] failover_seconds``."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from sqlalchemy import func
from sqlmodel import select

from gateway.delivery.leases import Leases
from gateway.vault import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import RollLog
from tests.irc.conftest import Harness
from tests.irc.test_miniircd import said_by

# GATEWAY_TEST_FAILOVER=15 measures the default.
FAILOVER = float(os.environ.get("GATEWAY_TEST_FAILOVER", "2.0"))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(tmp_path: Path, name: str, vault_url: str, irc_port: int) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    config = tmp_path / f"{name}.toml"
    config.write_text(
        f"""
[vault]
url = "{vault_url}"
[http]
port = {port}
[dice]
seed = 7
[outbox]
poll_interval = 0.05
[cluster]
failover_seconds = {FAILOVER}
[irc.test]
host = "127.0.0.1"
port = {irc_port}
tls = false
channels = ["#game"]
send_interval = 0.02
reconnect_min = 0.1
reconnect_max = 0.4
retry_delay = 0.2
"""
    )
    log = open(tmp_path / f"{name}.log", "wb")  # noqa: SIM115 - the process writes it until the end
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "--config", str(config), "serve"],
        cwd=tmp_path,
        env={**os.environ, "GATEWAY_NO_VENV": "1", "GATEWAY_LOG_FORMAT": "json"},
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return proc, port


async def healthy(port: int, timeout: float = 60.0) -> None:
    def get() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                return bool(resp.status == 200)
        except OSError:
            return False

    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(get):
        assert time.monotonic() < deadline, "the gateway never became healthy"
        await asyncio.sleep(0.2)


async def rolls(vault_url: str) -> int:
    vault = Vault(vault_url)
    try:
        async with vault.transaction() as session:
            return int((await session.exec(select(func.count()).select_from(RollLog))).one())
    finally:
        await vault.dispose()


async def lease_holder(vault_url: str) -> int:
    leases = Leases(Vault(vault_url))
    try:
        holder = await leases.current("irc:test")
    finally:
        await leases.vault.dispose()
    assert holder is not None
    return int(holder.owner.split(":")[1])  # hostname:pid:random


async def test_kill_9_of_the_owner_and_the_standby_takes_over(
    vault_url: str, irc: Harness, tmp_path: Path
) -> None:
    vault = Vault(vault_url)
    await upgrade(vault)
    await vault.dispose()
    server = await irc.miniircd()
    alice = await irc.client(server.port, "alice", "#game")
    owner, owner_port = serve(tmp_path, "a", vault_url, server.port)
    standby, standby_port = serve(tmp_path, "b", vault_url, server.port)
    try:
        await healthy(owner_port)
        await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=30)
        await healthy(standby_port)
        await asyncio.sleep(FAILOVER)

        for _ in range(5):
            await alice.say("#game", "!roll 3")
        replies = await alice.messages_from("nightcap", 5)
        assert all(ln.params[0] == "#game" and "rolls 3 dice" in ln.text for ln in replies)
        await asyncio.sleep(1.0)
        assert (
            alice.unread(lambda ln: ln.command in ("PRIVMSG", "JOIN") and ln.nick.startswith("night")) == []
        )
        assert await rolls(vault_url) == 5

        # Whichever of the two won the race at start holds the lease: that one dies.
        holder = await lease_holder(vault_url)
        if holder == standby.pid:
            owner, standby = standby, owner
        assert holder == owner.pid
        os.kill(owner.pid, signal.SIGKILL)
        owner.wait()
        killed = time.monotonic()
        await alice.wait_for(lambda ln: ln.command == "JOIN" and ln.nick == "nightcap", timeout=6 * FAILOVER)
        took = time.monotonic() - killed
        print(f"kill -9 to the standby's JOIN: {took:.3f} s (failover_seconds = {FAILOVER})")
        assert took <= FAILOVER + 1.0  # the lease within 0.85 F, then connect, register and join
        await alice.say("#game", "!roll 3")
        line = await alice.wait_for(said_by("nightcap"), timeout=10)
        assert "rolls 3 dice" in line.text
        assert await rolls(vault_url) == 6
    finally:
        for proc in (owner, standby):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
