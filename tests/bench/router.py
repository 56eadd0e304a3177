"""Benchmark: rolls per second through the router with the roll log written, against a bare loop of
single-row inserts into the same kind of SQLite file (WAL, synchronous=FULL, one commit per row).

Two bare loops: into a table with one unique index (the figure the target is judged by), and the
very roll-log row the router writes into a vault made by the migrations (four indexes, so each
commit writes more pages). A third figure is one insert through the vault's unit of work.

Run: ``.venv/bin/python -m tests.bench.router [--rolls N] [--rounds R]``. Rounds alternate the two
loops so all see the same machine load; the report gives each round and the median ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from gateway.app import Gateway
from gateway.logging import configure_logging
from gateway.settings import Settings
from gateway.types import Channel, Identity, InboundMessage


async def router_rate(path: Path, rolls: int) -> float:
    gateway = Gateway(Settings(vault={"url": f"sqlite+aiosqlite:///{path}"}), platforms=())
    await gateway.start()
    router = gateway.services.router
    assert router is not None
    message = InboundMessage(Identity("console", "bench", "Bench"), Channel("console", "bench"), "roll 5")
    await router.handle(message)  # warm caches and the connection pool
    start = time.perf_counter()
    for _ in range(rolls):
        replies = await router.handle(message)
        assert replies[0].error is None, replies
    elapsed = time.perf_counter() - start
    await gateway.stop()
    return rolls / elapsed


async def engine_rate(path: Path, rows: int) -> float:
    """The same single-row insert through the vault's own engine and unit of work (no router)."""
    from gateway.commands import ROLL_INSERT
    from gateway.vault import Vault
    from gateway.vault.migrate import upgrade
    from gateway.vault.models import utcnow

    vault = Vault(f"sqlite+aiosqlite:///{path}")
    await upgrade(vault)
    start = time.perf_counter()
    for i in range(rows):
        async with vault.unit() as unit:
            await unit.execute(
                ROLL_INSERT,
                dict(
                    public_id=f"e{i}",
                    person_id=None,
                    character_id=None,
                    identity_key="console:bench",
                    display_name="Bench",
                    channel_key="console:bench",
                    system="nightcap",
                    kind="roll",
                    pool=5,
                    dice=[9, 5, 10, 3, 7],
                    total=4,
                    degree="strong",
                    result={},
                    created_at=utcnow(),
                ),
            )
    elapsed = time.perf_counter() - start
    await vault.dispose()
    return rows / elapsed


def bare_vault_rate(path: Path, rows: int) -> float:
    """The roll-log row the router writes (same columns, indexes and text), by stdlib sqlite3 into a
    file the vault's own migrations made: the cost of the write itself, with no gateway around it."""
    from gateway.vault import Vault
    from gateway.vault.migrate import upgrade

    async def migrate() -> None:
        vault = Vault(f"sqlite+aiosqlite:///{path}")
        await upgrade(vault)
        await vault.dispose()

    asyncio.run(migrate())
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    result = json.dumps(
        {"kind": "roll", "system": "nightcap", "pool": 5, "dice": [9, 5, 10, 3, 7], "total": 4}
    )
    text = "Bench rolls 5 dice: 9 5 10 3 7 → 4 (Strong) #abcde"
    row = ("console:bench", "Bench", "console:bench", "nightcap", "roll", 5, "[9,5,10,3,7]", 4, "strong")
    start = time.perf_counter()
    for i in range(rows):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO roll_log (public_id, person_id, identity_key, display_name, channel_key, system,"
            " character_id, kind, pool, dice, total, degree, result, created_at, text, stlog_kind)"
            " VALUES (?,NULL,?,?,?,?,NULL,?,?,?,?,?,?,datetime('now'),?,?)",
            (f"v{i}", *row, result, text, "roll"),
        )
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return rows / elapsed


def bare_rate(path: Path, rows: int) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute(
        "CREATE TABLE IF NOT EXISTS roll_log (id INTEGER PRIMARY KEY, public_id TEXT UNIQUE,"
        " identity_key TEXT, display_name TEXT, channel_key TEXT, system TEXT, kind TEXT, pool INT,"
        " dice TEXT, total INT, degree TEXT, result TEXT, created_at TEXT)"
    )
    dice = json.dumps([9, 5, 10, 3, 7])
    start = time.perf_counter()
    for i in range(rows):
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO roll_log (public_id, identity_key, display_name, channel_key, system, kind, pool,"
            " dice, total, degree, result, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,datetime('now'))",
            (
                f"b{i}",
                "console:bench",
                "Bench",
                "console:bench",
                "nightcap",
                "roll",
                5,
                dice,
                4,
                "strong",
                "{}",
            ),
        )
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return rows / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dir", default=".", help="where the SQLite files go (default: here, like vault.db)")
    args = parser.parse_args()
    configure_logging("json", "warning")
    ratios: list[float] = []
    vault_ratios: list[float] = []
    engine_ratios: list[float] = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for r in range(args.rounds):
            routed = asyncio.run(router_rate(Path(tmp) / f"router{r}.db", args.rolls))
            bare = bare_rate(Path(tmp) / f"bare{r}.db", args.rolls)
            bare_vault = bare_vault_rate(Path(tmp) / f"bare-vault{r}.db", args.rolls)
            engine = asyncio.run(engine_rate(Path(tmp) / f"engine{r}.db", args.rolls))
            ratios.append(routed / bare)
            vault_ratios.append(routed / bare_vault)
            engine_ratios.append(routed / engine)
            print(
                f"round {r + 1}: router {routed:6.0f} rolls/s | bare sqlite3, one-index table {bare:6.0f}/s"
                f" | bare sqlite3, vault roll_log {bare_vault:6.0f}/s | vault unit insert {engine:6.0f}/s"
                f" | router/bare {routed / bare:.2f} | router/bare-vault {routed / bare_vault:.2f}"
            )
    print(f"median router/bare sqlite3 (one-index table): {statistics.median(ratios):.2f} (target >= 0.50)")
    print(f"median router/bare sqlite3 (vault roll_log row): {statistics.median(vault_ratios):.2f}")
    print(f"median router/one insert through a vault unit: {statistics.median(engine_ratios):.2f}")


if __name__ == "__main__":
    main()
