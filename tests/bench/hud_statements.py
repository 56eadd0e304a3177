"""Trace: the SQL statements one Second Life HUD roll runs on SQLite, listed and counted by kind.

Run: ``.venv/bin/python -m tests.bench.hud_statements [--text "roll 5"] [--no-state]``. A gateway
with the Second Life adapter on a loopback port and a SQLite vault in a temporary directory; one HUD
sends the command once (its person and channel rows are made then) and again, traced: every
statement SQLite runs on any of the vault's connections during the second request (sqlite3's trace
callback), so a second transaction or a repeated look-up shows. The Storyteller-log push is off, and
the outbox worker's own polls are left out of the count (they are not the request's).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import event

from gateway.core.app import Gateway
from gateway.core.dice import SeededDice
from tests.secondlife.conftest import sl_settings
from tests.secondlife.harness import Hud, serve

OUTBOX_POLL = "WITH RECURSIVE queues"  # the outbox worker looking for due rows, not the request


async def trace(text: str, state: bool) -> list[str]:
    url = f"sqlite+aiosqlite:///{Path(tempfile.mkdtemp(prefix='hud-trace-')) / 'vault.db'}"
    settings = sl_settings(url)
    settings.stlog.targets = []
    gateway = Gateway(settings, dice=SeededDice(1), platforms=("secondlife",))
    statements: list[str] = []
    tracing = False

    def record(sql: str) -> None:
        if tracing:
            statements.append(" ".join(sql.split()))

    @event.listens_for(gateway.services.vault.engine.sync_engine, "connect")
    def _trace(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.driver_connection.sqlite.set_trace_callback(record)

    running = await serve(gateway)
    try:
        hud = Hud(running.base_url, owner_name="Mira Resident")
        first = await hud.command(text, state=state)
        assert first.status == 200, first.raw
        tracing = True
        answer = await hud.command(text, state=state)
        tracing = False
        assert answer.status == 200, answer.raw
    finally:
        await running.stop()
    return _requests_only(statements)


def _requests_only(statements: list[str]) -> list[str]:
    """Without the outbox worker's polls: its statement, and the transaction around it."""
    kept: list[str] = []
    for sql in statements:
        if sql.startswith(OUTBOX_POLL):
            continue
        if sql in ("COMMIT", "ROLLBACK") and kept and kept[-1].startswith("BEGIN"):
            kept.pop()  # a transaction that held only a poll
            continue
        kept.append(sql)
    return kept


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--text", default="roll 5")
    parser.add_argument("--no-state", action="store_true", help='without "state": true')
    args = parser.parse_args()
    statements = asyncio.run(trace(args.text, not args.no_state))
    for sql in statements:
        print("  " + sql[:140])
    kinds = Counter(sql.split()[0].upper() for sql in statements)
    transactions = kinds["BEGIN"]
    print(f"{len(statements)} statements in {transactions} transaction(s): {dict(kinds)}")


if __name__ == "__main__":
    main()
