"""A PostgreSQL for benchmarks, durable as it is deployed: ``fsync``, ``synchronous_commit`` and
``full_page_writes`` on (the server's defaults), as the SQLite side runs ``synchronous=FULL``. The
test cluster of ``.ci/postgres.sh`` runs ``fsync=off``: fine for tests, but a figure measured on it
compares a PostgreSQL that never waits for the disk with a SQLite that does.

``durable_postgres()`` starts a throw-away cluster on a free loopback port and yields its URL;
``check_durable(url)`` refuses a server that is not durable (a benchmark given ``--postgres``).
"""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg

DURABLE = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"}


def _pg_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if found:
        return Path(found[-1]).parent
    pg_ctl = shutil.which("pg_ctl")
    if pg_ctl is None:
        raise RuntimeError("no PostgreSQL server binaries (pg_ctl) on this machine")
    return Path(pg_ctl).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(*command: str) -> list[str]:
    """initdb and postgres refuse to run as root: as the ``postgres`` user then."""
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else list(command)


async def server_settings(url: str) -> dict[str, str]:
    """The durability settings the server at ``url`` runs with."""
    connection = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        return {name: str(await connection.fetchval(f"SHOW {name}")) for name in DURABLE}
    finally:
        await connection.close()


async def check_durable(url: str) -> dict[str, str]:
    found = await server_settings(url)
    off = {name: value for name, value in found.items() if value != DURABLE[name]}
    if off:
        raise SystemExit(
            f"the PostgreSQL at {url} is not durable ({', '.join(f'{k}={v}' for k, v in off.items())}):"
            " leave --postgres out and the benchmark starts a durable one"
        )
    return found


@contextlib.asynccontextmanager
async def durable_postgres() -> AsyncIterator[str]:
    """A fresh cluster with the server's durable defaults; its ``postgresql+asyncpg`` URL."""
    bin_dir = _pg_bin()
    root = Path(tempfile.mkdtemp(prefix="bench-pg-"))
    data, port = root / "data", _free_port()
    if os.geteuid() == 0:
        shutil.chown(root, "postgres")
    init = [str(bin_dir / "initdb"), "-D", str(data), "-U", "gateway", "--auth=trust", "-E", "UTF8"]
    subprocess.run(_as_postgres(*init), check=True, stdout=subprocess.DEVNULL)
    options = f"-k {root} -p {port} -c listen_addresses=127.0.0.1 -c max_connections=200"
    ctl = [str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w"]
    subprocess.run(_as_postgres(*ctl, "-o", options, "start"), check=True, stdout=subprocess.DEVNULL)
    try:
        url = f"postgresql+asyncpg://gateway@127.0.0.1:{port}/postgres"
        await check_durable(url)
        yield url
    finally:
        stop = [*ctl, "-m", "fast", "stop"]
        await asyncio.to_thread(subprocess.run, _as_postgres(*stop), stdout=subprocess.DEVNULL)
        shutil.rmtree(root, ignore_errors=True)
