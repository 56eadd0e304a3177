"""Benchmark: rolls per second through the router with the roll log written, against a bare loop of
single-row inserts into the same kind of SQLite file (WAL, synchronous=FULL, one commit per row).

Four loops, each on its own fresh file, side by side:

- ``router``: ``roll 5`` through the router (parse, sender look-up, Nightcap dice, roll-log row with
  its Storyteller-log line, commit);
- ``bare``: stdlib sqlite3, one row per commit into a table with one unique index (the figure the
  target, router >= 0.5 x bare, is judged by);
- ``bare-vault``: stdlib sqlite3, the very roll-log row the router writes, into a vault the
  migrations made (its four indexes make each commit write more pages);
- ``unit``: that row through the vault's own unit of work (no router).

Run: ``.venv/bin/python -m tests.bench.router [--rolls N] [--rounds R] [--slice S]``. The machine
is shared and noisy, so within a round the loops take turns in slices of S rows (default 100) and
each loop's rate is its rows over its own summed time: all four see the same load. The report gives
each round and the median ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from gateway.core.app import Gateway
from gateway.core.commands import ROLL_INSERT
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.ops.logging import configure_logging
from gateway.vault import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import utcnow

RESULT = {"kind": "roll", "system": "nightcap", "pool": 5, "dice": [9, 5, 10, 3, 7], "total": 4}
LINE = "Bench rolls 5 dice: 9 5 10 3 7 → 4 (Strong) #abcde"
ROW = ("console:bench", "Bench", "console:bench", "nightcap", "roll", 5, "[9,5,10,3,7]", 4, "strong")

Loop = Callable[[int], Awaitable[None]]  # runs n more rows


def sqlite_file(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    return conn


def bare_loop(path: Path) -> tuple[Loop, Callable[[], None]]:
    conn = sqlite_file(path)
    conn.execute(
        "CREATE TABLE IF NOT EXISTS roll_log (id INTEGER PRIMARY KEY, public_id TEXT UNIQUE,"
        " identity_key TEXT, display_name TEXT, channel_key TEXT, system TEXT, kind TEXT, pool INT,"
        " dice TEXT, total INT, degree TEXT, result TEXT, created_at TEXT)"
    )
    result = json.dumps(RESULT)
    sql = (
        "INSERT INTO roll_log (public_id, identity_key, display_name, channel_key, system, kind,"
        " pool, dice, total, degree, result, created_at)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,datetime('now'))"
    )
    return _insert_each(conn, sql, lambda i: (f"b{i}", *ROW, result)), conn.close


async def bare_vault_loop(path: Path) -> tuple[Loop, Callable[[], None]]:
    vault = Vault(f"sqlite+aiosqlite:///{path}")
    await upgrade(vault)
    await vault.dispose()
    conn = sqlite_file(path)
    result = json.dumps(RESULT)
    sql = (
        "INSERT INTO roll_log (public_id, person_id, identity_key, display_name, channel_key,"
        " system, character_id, kind, pool, dice, total, degree, result, created_at, text,"
        " stlog_kind) VALUES (?,NULL,?,?,?,?,NULL,?,?,?,?,?,?,datetime('now'),?,?)"
    )
    return _insert_each(conn, sql, lambda i: (f"v{i}", *ROW, result, LINE, "roll")), conn.close


def _insert_each(conn: sqlite3.Connection, sql: str, row: Callable[[int], tuple[Any, ...]]) -> Loop:
    """The bare baseline: one row per transaction, as a command commits one roll."""
    done = 0

    async def run(n: int) -> None:
        nonlocal done
        for i in range(done, done + n):
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(sql, row(i))
            conn.execute("COMMIT")
        done += n

    return run


async def unit_loop(path: Path) -> tuple[Loop, Callable[[], Awaitable[None]]]:
    vault = Vault(f"sqlite+aiosqlite:///{path}")
    await upgrade(vault)
    done = 0

    async def run(n: int) -> None:
        nonlocal done
        for i in range(done, done + n):
            async with vault.unit() as unit:
                await unit.execute(ROLL_INSERT, _roll_params(f"u{i}"))
        done += n

    return run, vault.dispose


def _roll_params(public_id: str) -> dict[str, Any]:
    identity, name, channel, system, kind, pool, _, total, degree = ROW
    return dict(
        public_id=public_id,
        person_id=None,
        identity_key=identity,
        display_name=name,
        channel_key=channel,
        system=system,
        character_id=None,
        kind=kind,
        pool=pool,
        dice=RESULT["dice"],
        total=total,
        degree=degree,
        result=RESULT,
        created_at=utcnow(),
        text=LINE,
        stlog_kind="roll",
    )


async def router_loop(path: Path) -> tuple[Loop, Callable[[], Awaitable[None]]]:
    gateway = Gateway(Settings(vault={"url": f"sqlite+aiosqlite:///{path}"}), platforms=())
    await gateway.start()
    router = gateway.services.router
    assert router is not None
    message = InboundMessage(Identity("console", "bench", "Bench"), Channel("console", "bench"), "roll 5")
    await router.handle(message)  # the first sight creates the person and the channel

    async def run(n: int) -> None:
        for _ in range(n):
            replies = await router.handle(message)
            assert replies[0].error is None, replies

    return run, gateway.stop


async def one_round(directory: Path, rows: int, slice_rows: int) -> dict[str, float]:
    router, stop_router = await router_loop(directory / "router.db")
    bare, close_bare = bare_loop(directory / "bare.db")
    bare_vault, close_bare_vault = await bare_vault_loop(directory / "bare-vault.db")
    unit, stop_unit = await unit_loop(directory / "unit.db")
    loops = {"router": router, "bare": bare, "bare-vault": bare_vault, "unit": unit}
    spent = dict.fromkeys(loops, 0.0)
    for start in range(0, rows, slice_rows):
        n = min(slice_rows, rows - start)
        for name, loop in loops.items():
            began = time.perf_counter()
            await loop(n)
            spent[name] += time.perf_counter() - began
    await stop_router()
    close_bare()
    close_bare_vault()
    await stop_unit()
    return {name: rows / seconds for name, seconds in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rolls", type=int, default=2000, help="rows per loop per round (default 2000)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--slice", type=int, default=100, help="rows per turn (default 100)")
    parser.add_argument("--dir", default=".", help="where the SQLite files go (default: here, like vault.db)")
    args = parser.parse_args()
    configure_logging("json", "warning")
    ratios: dict[str, list[float]] = {"bare": [], "bare-vault": [], "unit": []}
    for r in range(args.rounds):
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            rates = asyncio.run(one_round(Path(tmp), args.rolls, args.slice))
        for name in ratios:
            ratios[name].append(rates["router"] / rates[name])
        print(
            f"round {r + 1}: router {rates['router']:5.0f} rolls/s | bare {rates['bare']:5.0f}/s"
            f" | bare-vault {rates['bare-vault']:5.0f}/s | unit {rates['unit']:5.0f}/s"
            f" | router/bare {ratios['bare'][-1]:.2f} | router/bare-vault {ratios['bare-vault'][-1]:.2f}"
        )
    print(f"median router/bare: {statistics.median(ratios['bare']):.2f} (target >= 0.50)")
    print(f"median router/bare-vault: {statistics.median(ratios['bare-vault']):.2f}")
    print(f"median router/unit: {statistics.median(ratios['unit']):.2f}")


if __name__ == "__main__":
    main()
