"""Benchmark: one outbox claim with a backlog of 0, 10,000 and 100,000 pending rows.

A backlog is what a target that is down leaves behind: here one target holds it, twenty others
have three rows each. For each size and engine it reports the claim's median time, the database's
work (SQLite: VM instructions; PostgreSQL: buffer pages) and whether the plan touched the heap with a
sequential scan. Beside it, in the same run, the claim this project used before (a correlated
``min(id)`` per pending row) at 1,000 and 2,000 rows: it grows with the square of the backlog, so
larger sizes would take hours.

Run: ``.venv/bin/python -m tests.bench.outbox_claim [--sizes 0,10000,100000] [--postgres URL]``
(PostgreSQL also from ``GATEWAY_TEST_POSTGRES_URL``; a fresh database is made and dropped).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from contextlib import ExitStack

from sqlalchemy import bindparam, func, select

from gateway.delivery.outbox import _ROW, BATCH, CLAIM
from gateway.ops.logging import configure_logging
from gateway.testing import postgres_database
from gateway.vault import Vault
from gateway.vault.migrate import upgrade
from gateway.vault.models import utcnow
from gateway.vault.prepared import Prepared
from tests.helpers.outbox_backlog import claim_cost, fill

_OLDER = _ROW.alias("older")
OLD_CLAIM = Prepared(
    select(_ROW.c.id, _ROW.c.target, _ROW.c.payload, _ROW.c.attempts, _ROW.c.created_at)
    .where(
        _ROW.c.platform == bindparam("platform"),
        _ROW.c.status == "pending",
        _ROW.c.next_attempt_at <= bindparam("now"),
        _ROW.c.claimed_until.is_(None) | (_ROW.c.claimed_until < bindparam("now")),
        _ROW.c.id
        == select(func.min(_OLDER.c.id))
        .where(
            _OLDER.c.platform == _ROW.c.platform,
            _OLDER.c.target == _ROW.c.target,
            _OLDER.c.status == "pending",
        )
        .scalar_subquery(),
    )
    .order_by(_ROW.c.id)
    .limit(BATCH)
    .with_for_update(skip_locked=True)
)
OTHERS = {f"room-{i}": 3 for i in range(20)}


async def measure(url: str, sizes: list[int], statement: Prepared, repeats: int) -> list[str]:
    vault = Vault(url)
    await upgrade(vault, [])
    if statement is OLD_CLAIM:  # with the index it was written for
        async with vault.transaction() as session:
            connection = await session.connection()
            await connection.exec_driver_sql("DROP INDEX ix_outbox_queue")
            await connection.exec_driver_sql(
                "CREATE INDEX ix_outbox_due ON outbox (platform, status, next_attempt_at)"
            )
    now = utcnow()
    await fill(vault, "bench", OTHERS, now)
    lines, backlog = [], 0
    for size in sizes:
        if size > backlog:
            await fill(vault, "bench", {"down": size - backlog}, now)
            backlog = size
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            work, found, plan = await claim_cost(vault, {"platform": "bench", "now": now}, statement)
            times.append(time.perf_counter() - started)
        seq = "seq scan" if ("Seq Scan" in plan or "SCAN outbox" in plan) else "index only"
        lines.append(
            f"  {backlog:>7} rows  {statistics.median(times) * 1000:9.2f} ms  work {work:>10}  "
            f"{found} heads  {seq}"
        )
    await vault.dispose()
    return lines


async def run(urls: dict[str, tuple[str, str]], sizes: list[int], old_sizes: list[int], repeats: int) -> None:
    for engine, (new_url, old_url) in urls.items():
        print(f"{engine}: claim (loose index scan on ix_outbox_queue)")
        print("\n".join(await measure(new_url, sizes, CLAIM, repeats)))
        print(f"{engine}: the old claim (min(id) per pending row, on ix_outbox_due), the baseline")
        print("\n".join(await measure(old_url, old_sizes, OLD_CLAIM, 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="0,10000,100000")
    parser.add_argument("--old-sizes", default="0,1000,2000")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--postgres", default=os.environ.get("GATEWAY_TEST_POSTGRES_URL"))
    args = parser.parse_args()
    configure_logging("json", "warning")
    sizes = [int(n) for n in args.sizes.split(",")]
    old_sizes = [int(n) for n in args.old_sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        urls = {"sqlite": (f"sqlite+aiosqlite:///{tmp}/new.db", f"sqlite+aiosqlite:///{tmp}/old.db")}
        if args.postgres:
            urls["postgresql"] = (
                stack.enter_context(postgres_database(args.postgres)),
                stack.enter_context(postgres_database(args.postgres)),
            )
        asyncio.run(run(urls, sizes, old_sizes, args.repeats))


if __name__ == "__main__":
    main()
