"""Benchmark: ``gateway db copy`` of a vault of N rolls, SQLite -> PostgreSQL and back (rows/s).

The vault is one person with N roll-log rows (each with its JSON dice and result, as a roll writes
them), written straight into a migrated SQLite file; the copy is ``copy_vault`` as the CLI runs it
(batches of ``BATCH`` rows, the read-back digest check included).

Run: ``.venv/bin/python -m tests.bench.db_copy [--rows 20000] [--postgres URL]`` (PostgreSQL also from
``GATEWAY_TEST_POSTGRES_URL``; a fresh database is made and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from datetime import timedelta
from pathlib import Path

from sqlalchemy import insert

from gateway.ops.logging import configure_logging
from gateway.testing import POSTGRES_URL_VARIABLE, postgres_database
from gateway.vault import Vault
from gateway.vault.copy import BATCH, copy_vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import IdentityLink, Person, RollLog, utcnow


async def make_vault(url: str, rolls: int) -> None:
    vault = Vault(url)
    await upgrade(vault)
    start = utcnow()
    async with vault.engine.begin() as conn:
        await conn.execute(
            insert(Person.__table__), [{"id": 1, "display_name": "Bench", "created_at": start}]
        )  # type: ignore[attr-defined]
        await conn.execute(
            insert(IdentityLink.__table__),  # type: ignore[attr-defined]
            [
                {
                    "key": "console:bench",
                    "person_id": 1,
                    "platform": "console",
                    "display_name": "Bench",
                    "verified": True,
                    "created_at": start,
                }
            ],
        )
        table = RollLog.__table__  # type: ignore[attr-defined]
        for first in range(0, rolls, BATCH):
            rows = []
            for n in range(first, min(first + BATCH, rolls)):
                dice = [(n * 7 + k) % 10 + 1 for k in range(5)]
                result = {"kind": "roll", "dice": dice, "total": sum(d >= 8 for d in dice), "degree": "solid"}
                rows.append(
                    {
                        "public_id": f"b{n:07d}",
                        "person_id": 1,
                        "identity_key": "console:bench",
                        "display_name": "Bench",
                        "channel_key": "console:main",
                        "system": "nightcap",
                        "kind": "roll",
                        "pool": 5,
                        "dice": dice,
                        "total": result["total"],
                        "degree": "solid",
                        "result": result,
                        "created_at": start + timedelta(microseconds=n),
                        "text": f"Bench rolls 5 dice: {' '.join(map(str, dice))} #b{n:07d}",
                        "stlog_kind": "roll",
                    }
                )
            await conn.execute(insert(table), rows)
    await vault.dispose()


async def timed(source: str, target: str) -> tuple[int, float]:
    started = time.perf_counter()
    reports = await copy_vault(source, target)
    return sum(r.rows for r in reports), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=20_000, help="roll-log rows in the vault")
    parser.add_argument(
        "--postgres", default=os.environ.get(POSTGRES_URL_VARIABLE), help="a PostgreSQL server URL"
    )
    args = parser.parse_args()
    if not args.postgres:
        parser.error(f"give --postgres URL or set {POSTGRES_URL_VARIABLE}")
    configure_logging("auto", "warning")
    with tempfile.TemporaryDirectory() as tmp, postgres_database(args.postgres) as pg:
        source = f"sqlite+aiosqlite:///{Path(tmp) / 'source.db'}"
        back = f"sqlite+aiosqlite:///{Path(tmp) / 'back.db'}"
        asyncio.run(make_vault(source, args.rows))
        for name, (src, dst) in {
            "SQLite -> PostgreSQL": (source, pg),
            "PostgreSQL -> SQLite": (pg, back),
        }.items():
            rows, seconds = asyncio.run(timed(src, dst))
            print(f"{name}: {rows} rows in {seconds:.2f}s, {rows / seconds:,.0f} rows/s (batches of {BATCH})")


if __name__ == "__main__":
    main()
