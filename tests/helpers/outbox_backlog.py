"""Outbox backlogs for tests and the claim benchmark: fill a vault with pending rows, and measure what
one claim query costs in work the database does (not in seconds, so a test can compare sizes).

SQLite: virtual-machine instructions, counted by a progress handler on the unit's own connection.
PostgreSQL: buffer pages the plan touched (``EXPLAIN (ANALYZE, BUFFERS)``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import insert

from gateway.delivery.outbox import CLAIM
from gateway.vault import Vault
from gateway.vault.models import OutboxRow
from gateway.vault.prepared import Prepared
from gateway.vault.unit import SQLiteUnit

_ROW = OutboxRow.__table__  # type: ignore[attr-defined]
CHUNK = 5000


async def fill(vault: Vault, platform: str, per_target: Mapping[str, int], now: datetime) -> int:
    """Queue ``per_target[target]`` pending rows for each target, interleaved as traffic would be."""
    rows: list[dict[str, Any]] = []
    remaining = dict(per_target)
    while remaining:
        for target in list(remaining):
            rows.append(
                dict(
                    platform=platform,
                    target=target,
                    payload={"kind": "stlog", "text": f"row {len(rows)}"},
                    status="pending",
                    attempts=0,
                    next_attempt_at=now,
                    created_at=now,
                )
            )
            remaining[target] -= 1
            if not remaining[target]:
                del remaining[target]
    for start in range(0, len(rows), CHUNK):
        async with vault.transaction() as session:
            await (await session.connection()).execute(insert(_ROW), rows[start : start + CHUNK])
    if vault.dialect == "postgresql":
        async with vault.transaction() as session:
            await (await session.connection()).exec_driver_sql("ANALYZE outbox")
    return len(rows)


async def claim_cost(
    vault: Vault, params: Mapping[str, Any], statement: Prepared = CLAIM
) -> tuple[int, int, str]:
    """(work, rows returned, plan) of one run of ``statement`` (it writes nothing)."""
    if statement is CLAIM:  # as a worker with no target left to another process claims
        params = {"elsewhere": "[]", **params}
    async with vault.unit() as unit:
        if isinstance(unit, SQLiteUnit):
            steps = [0]

            def count() -> int:
                steps[0] += 1
                return 0

            unit.raw.set_progress_handler(count, 10)
            try:
                found = await unit.all(statement, params)
            finally:
                unit.raw.set_progress_handler(None, 0)
            compiled = statement.compile(unit.connection.dialect, frozenset(params))
            plan = unit.raw.execute(f"EXPLAIN QUERY PLAN {compiled.sql}", compiled.parameters(params))
            return steps[0] * 10, len(found), "\n".join(str(row[-1]) for row in plan)
        dialect = unit.connection.dialect
        compiled = statement.compile(dialect, frozenset(params))
        result = await unit.connection.exec_driver_sql(
            f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {compiled.sql}", tuple(compiled.parameters(params))
        )
        (raw,) = result.one()
        tree = (json.loads(raw) if isinstance(raw, str) else raw)[0]["Plan"]
        touched = tree.get("Shared Hit Blocks", 0) + tree.get("Shared Read Blocks", 0)
        return touched, int(tree.get("Actual Rows", 0)), json.dumps(tree)
