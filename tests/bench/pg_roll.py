"""Benchmark: the gateway's CPU for one ``roll 5`` through the router, PostgreSQL beside SQLite, and
the round trips one roll's unit makes to PostgreSQL.

No HTTP and one command in flight, so the figure is the router, the unit of work and the driver:
what ``tests.bench.cluster`` adds to it is aiohttp's share, the same on both engines. The engines
take turns in slices of ``--slice`` rolls (a shared machine's load falls on both alike); each
figure is ``time.process_time`` per roll, the median of the rounds. Then one more roll on
PostgreSQL, traced: every statement asyncpg sends for it (the unit's, and the batched ``NOTIFY``
that follows it on another connection).

Run: ``.venv/bin/python -m tests.bench.pg_roll --postgres URL [--rolls 500] [--rounds 3]``
(``GATEWAY_TEST_POSTGRES_URL`` if set; any server: this counts CPU and statements, not fsyncs).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from gateway.core.app import Gateway
from gateway.core.dice import SeededDice
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.vault.engine import Vault
from gateway.vault.migrate import upgrade
from tests.fault.cluster import create_database, drop_database, migrate

MESSAGE = InboundMessage(
    sender=Identity("http", "bench", "bench"), channel=Channel("http", "cluster"), text="roll 5"
)


async def started(url: str) -> Gateway:
    gateway = Gateway(
        Settings.model_validate({"vault": {"url": url}, "stlog": {"targets": []}}), dice=SeededDice(1)
    )
    await gateway.start()
    for _ in range(20):  # the person, the channel, the prepared statements
        await gateway.services.handle(MESSAGE)
    return gateway


async def cpu_per_roll(gateway: Gateway, rolls: int) -> float:
    started_at = time.process_time()
    for _ in range(rolls):
        await gateway.services.handle(MESSAGE)
    return (time.process_time() - started_at) / rolls


@contextmanager
def traced(found: list[str]) -> Iterator[None]:
    """Every query asyncpg sends meanwhile, as its first words."""
    import asyncpg.connection
    import asyncpg.prepared_stmt

    patched: list[tuple[type[Any], str, Callable[..., Any]]] = []

    def wrap(cls: type[Any], name: str) -> None:
        original = getattr(cls, name)

        async def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            query = self.get_query() if hasattr(self, "get_query") else str(args[0] if args else "")
            found.append(" ".join(query.split())[:70])
            return await original(self, *args, **kwargs)

        patched.append((cls, name, original))
        setattr(cls, name, call)

    wrap(asyncpg.connection.Connection, "execute")
    wrap(asyncpg.prepared_stmt.PreparedStatement, "fetch")
    try:
        yield
    finally:
        for cls, name, original in patched:
            setattr(cls, name, original)


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="bench-pg-roll-"))
    sqlite_url = f"sqlite+aiosqlite:///{folder / 'vault.db'}"
    vault = Vault(sqlite_url)
    await upgrade(vault)
    await vault.dispose()
    pg_url = await create_database(args.postgres)
    try:
        await migrate(pg_url)
        gateways = {"SQLite": await started(sqlite_url), "PostgreSQL": await started(pg_url)}
        per: dict[str, list[float]] = {name: [] for name in gateways}
        for _ in range(args.rounds):
            spent = dict.fromkeys(gateways, 0.0)
            for _ in range(max(1, args.rolls // args.slice)):
                for name, gateway in gateways.items():
                    spent[name] += await cpu_per_roll(gateway, args.slice) * args.slice
            for name in gateways:
                per[name].append(spent[name] / (max(1, args.rolls // args.slice) * args.slice))
        statements: list[str] = []
        await asyncio.sleep(0.2)  # the last round's notices sent: the trace is this roll's alone
        with traced(statements):
            await gateways["PostgreSQL"].services.handle(MESSAGE)
            await asyncio.sleep(0.2)  # the batched NOTIFY, after the commit
        for gateway in gateways.values():
            await gateway.stop()
    finally:
        await drop_database(args.postgres, pg_url)
    print(f"roll 5 through the router, one in flight, {args.rounds} rounds of {args.rolls}")
    for name, values in per.items():
        shown = ", ".join(f"{v * 1000:.3f}" for v in values)
        print(f"{name:<11} {statistics.median(values) * 1000:.3f} ms CPU a roll (rounds: {shown})")
    ratio = statistics.median(per["PostgreSQL"]) / statistics.median(per["SQLite"])
    print(f"PostgreSQL ÷ SQLite: {ratio:.2f}× the CPU a roll")
    print(f"\none roll's statements to PostgreSQL ({len(statements)}):")
    for statement in statements:
        print(f"  {statement}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--postgres", default=os.environ.get("GATEWAY_TEST_POSTGRES_URL"))
    parser.add_argument("--rolls", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--slice", type=int, default=50)
    args = parser.parse_args()
    if not args.postgres:
        parser.error("--postgres URL (or GATEWAY_TEST_POSTGRES_URL) is needed")
    if args.rolls < 1 or args.rounds < 1 or args.slice < 1:
        parser.error("--rolls, --rounds and --slice must be at least 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
