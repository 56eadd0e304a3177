"""``gateway status [--json]``: the deployment as the vault sees it, not as one process's HTTP does.

Each process (from its heartbeat row: alive when seen within two of its heartbeats, else gone), the
leases and who holds them, each adapter's state as its process last reported it, and the outbox's
pending and dead rows per platform and target with the age of the oldest pending row. Every age is
measured on the database's clock, like the rows themselves. A vault that cannot be reached or is not
migrated exits 2 with one line.

It answers at once (issue 37): a SQLite vault is read by Python's own ``sqlite3``, read-only, with
plain SQL; migrations are judged from the files' revision lines (``gateway.ops.revisions``), not
by Alembic; no plugin is imported unless the vault holds a revision the core does not know.
PostgreSQL goes through a bare SQLAlchemy engine (its URL options), still without the models.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from gateway.core.errors import one_line
from gateway.ops.revisions import CORE_VERSIONS, Verdict, heads, judge, read_graph

if TYPE_CHECKING:
    from gateway.core.settings import Settings

# What the report reads, as plain SQL for either dialect: the command answers at once when it needs
# neither SQLAlchemy's query building nor its models (SQLite's own module reads a SQLite vault).
# The outbox queries are ``queue.BACKLOG`` and ``queue.HEADS``, written out.
NOW = {"sqlite": "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')", "postgresql": "SELECT clock_timestamp()"}
HAS_VERSIONS = {
    "sqlite": "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'",
    "postgresql": "SELECT count(*) FROM pg_tables"
    " WHERE tablename = 'alembic_version' AND schemaname = current_schema()",
}
VERSIONS = "SELECT version_num FROM alembic_version"
PROCESSES = "SELECT id, host, pid, version, started_at, seen_at, state FROM gateway_process"
LEASES = "SELECT name, owner, epoch, expires_at FROM lease ORDER BY name"
BACKLOG = (
    "SELECT platform, target, sum(CASE WHEN status = 'pending' THEN 1 ELSE 0 END),"
    " sum(CASE WHEN status = 'dead' THEN 1 ELSE 0 END), min(CASE WHEN status = 'pending' THEN created_at END)"
    " FROM outbox WHERE status IN ('pending', 'dead') GROUP BY platform, target ORDER BY platform, target"
)
HEADS = (
    "SELECT platform, target, attempts, last_error, next_attempt_at FROM outbox WHERE id IN"
    " (SELECT min(id) FROM outbox WHERE status = 'pending' GROUP BY platform, target)"
)
PROBE_TIMEOUT = 2.0  # seconds a PostgreSQL vault has to answer the first query (as /readyz)
_SQLITE = re.compile(r"^sqlite(?:\+\w+)?://(/[^?]*)?(?:\?.*)?$")


class Unavailable(Exception):
    """The vault cannot be read (unreachable, not migrated): one line for the operator."""


class Reader(Protocol):
    dialect: str

    async def rows(self, sql: str) -> Sequence[Sequence[Any]]: ...

    async def close(self) -> None: ...


class SqliteReader:
    """A SQLite vault through Python's own module, read-only (it never creates a file)."""

    dialect = "sqlite"

    def __init__(self, path: str, busy_timeout_ms: int) -> None:
        if not Path(path).is_file():
            raise Unavailable(f"no vault at {path}")  # and do not leave an empty one there
        self.db = sqlite3.connect(
            f"file:{quote(path)}?mode=ro", uri=True, timeout=busy_timeout_ms / 1000, check_same_thread=False
        )

    async def rows(self, sql: str) -> Sequence[Sequence[Any]]:
        return self.db.execute(sql).fetchall()

    async def close(self) -> None:
        self.db.close()


class EngineReader:
    """Any other vault (PostgreSQL) through a SQLAlchemy engine, with the URL's own options."""

    def __init__(self, url: str) -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        self.engine = create_async_engine(url)
        self.dialect = self.engine.dialect.name

    async def rows(self, sql: str) -> Sequence[Sequence[Any]]:
        from sqlalchemy import text

        async with self.engine.connect() as conn:
            return [tuple(row) for row in (await conn.execute(text(sql))).all()]

    async def close(self) -> None:
        await self.engine.dispose()


def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    try:
        report = asyncio.run(gather(settings))
    except Unavailable as exc:
        print(f"gateway status: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else "\n".join(render(report)))
    return 0


def open_reader(url: str, busy_timeout_ms: int) -> tuple[Reader, str]:
    """A reader of the vault at ``url`` and the URL to show (no password)."""
    sqlite = _SQLITE.match(url)
    if sqlite:
        path = (sqlite.group(1) or "").removeprefix("/")
        if not path or path == ":memory:":
            raise Unavailable("an in-memory vault lives only inside its own process")
        return SqliteReader(path, busy_timeout_ms), url
    try:
        from sqlalchemy.engine import make_url

        shown = make_url(url).render_as_string(hide_password=True)
        return EngineReader(url), shown
    except Exception as exc:
        raise Unavailable(f"bad [vault] url: {exc}") from None


async def gather(settings: Settings) -> dict[str, Any]:
    """The whole report as one JSON-ready document."""
    reader, shown = open_reader(settings.vault.url, settings.vault.busy_timeout_ms)
    try:
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                has_versions = (await reader.rows(HAS_VERSIONS[reader.dialect]))[0][0]
        except TimeoutError:
            raise Unavailable(f"the vault did not answer within {PROBE_TIMEOUT:g} s") from None
        except Exception as exc:
            raise Unavailable(f"the vault cannot be reached: {_one_line(exc)}") from None
        current = {str(rev) for (rev,) in await reader.rows(VERSIONS)} if has_versions else set()
        verdict = migrations(current, settings.plugins.block)
        if not verdict.ready:
            raise Unavailable(verdict.reason)
        now = _time((await reader.rows(NOW[reader.dialect]))[0][0])
        assert now is not None
        processes = await reader.rows(PROCESSES)
        leases = await reader.rows(LEASES)
        backlog = await reader.rows(BACKLOG)
        queue_heads = {(p, t): (a, e, n) for p, t, a, e, n in await reader.rows(HEADS)}
    except Unavailable:
        raise
    except Exception as exc:
        raise Unavailable(f"the vault cannot be read: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    finally:
        await reader.close()
    default_beat = settings.cluster.failover_seconds / 3
    return {
        "vault": {"url": shown, "migrations": verdict.reason},
        "now": now.isoformat(),
        "processes": [
            _process(p, now, default_beat) for p in sorted(processes, key=lambda p: _time(p[4]) or now)
        ],
        "leases": [_lease(lease, now) for lease in leases],
        "outbox": _outbox(backlog, queue_heads, now),
        "charts": _charts(settings),
    }


def migrations(current: set[str], block: Sequence[str]) -> Verdict:
    """The vault's revisions judged against the core's migration files, read without Alembic. A
    revision the core has no file for is a plugin's branch or a newer release's: only then are the
    plugins imported, for their migration folders (a plugin's branch never migrated at all is for
    ``/readyz`` and ``gateway db upgrade`` to find, not this quick look)."""
    graph = read_graph([CORE_VERSIONS])
    if not current <= set(graph):
        from gateway.core.plugins import Plugins, build_plugin_manager
        from gateway.ops.logging import configure_logging

        configure_logging("auto", "warning")  # the plugins' start-up lines are not this report's
        graph.update(read_graph(Plugins(build_plugin_manager(block)).migration_locations()))
    return judge(current, heads(graph), graph.__contains__)


def _time(value: Any) -> datetime | None:
    """A timestamp as either driver hands it over: SQLite's UTC text, PostgreSQL's aware datetime."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _one_line(exc: BaseException) -> str:
    said = str(exc).strip()
    return f"{type(exc).__name__}: {one_line(exc)[:200]}" if said else type(exc).__name__


def _charts(settings: Settings) -> dict[str, Any]:
    """The font odds pictures are drawn with on this machine, or why there are none (then Discord
    and Matrix send the text alone)."""
    try:
        from gateway.rules.charts import fonts
    except ImportError as exc:  # Pillow missing from this installation
        return {"font": None, "problem": f"Pillow cannot be imported ({exc})"}
    path, why = fonts.find(settings.gateway.chart_font)
    return {"font": path, "problem": why or None}


def _age(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else round(max(0.0, (now - then).total_seconds()), 3)


def _process(row: Sequence[Any], now: datetime, default_beat: float) -> dict[str, Any]:
    id_, host, pid, version, started_at, seen_at, raw_state = row
    state = (json.loads(raw_state) if isinstance(raw_state, str) else raw_state) or {}
    started, seen_at = _time(started_at), _time(seen_at)
    assert started is not None and seen_at is not None
    beat = float(state.get("heartbeat_seconds") or default_beat)
    seen = _age(now, seen_at) or 0.0
    return {
        "id": id_,
        "host": host,
        "pid": pid,
        "version": version,
        "started_at": started.isoformat(),
        "seen_at": seen_at.isoformat(),
        "seen_ago": seen,
        "state": "alive" if seen <= 2 * beat else "gone",
        "heartbeat_seconds": beat,
        "leases": state.get("leases") or {},
        "adapters": state.get("adapters") or {},
    }


def _lease(row: Sequence[Any], now: datetime) -> dict[str, Any]:
    name, owner, epoch, expires = row
    expires_at = _time(expires)
    assert expires_at is not None
    left = (expires_at - now).total_seconds()
    return {
        "name": name,
        "owner": owner,
        "epoch": epoch,
        "expires_at": expires_at.isoformat(),
        "expires_in": round(left, 3),
        "held": left > 0,
    }


def _outbox(
    backlog: Sequence[Sequence[Any]], queue_heads: dict[tuple[str, str], tuple[Any, Any, Any]], now: datetime
) -> dict[str, Any]:
    platforms: dict[str, dict[str, Any]] = {}
    for platform, target, pending_, dead_, oldest in backlog:
        pending, dead = int(pending_ or 0), int(dead_ or 0)
        attempts, last_error, next_attempt = queue_heads.get((platform, target), (0, None, None))
        entry = platforms.setdefault(
            platform, {"pending": 0, "dead": 0, "oldest_pending_age": None, "targets": []}
        )
        age = _age(now, _time(oldest))
        entry["pending"] += pending
        entry["dead"] += dead
        if age is not None and (entry["oldest_pending_age"] is None or age > entry["oldest_pending_age"]):
            entry["oldest_pending_age"] = age
        due_at = _time(next_attempt)
        due = None if due_at is None else round((due_at - now).total_seconds(), 3)
        entry["targets"].append(
            {
                "target": target,
                "pending": pending,
                "dead": dead,
                "oldest_pending_age": age,
                # why the head of the queue waits: its failed attempts, last error, seconds until due
                "attempts": int(attempts or 0),
                "last_error": last_error,
                "due_in": None if due is None else max(0.0, due),
            }
        )
    return platforms


# -- text ----------------------------------------------------------------------------------------------


def render(report: dict[str, Any]) -> list[str]:
    """The report as aligned text, one section per part."""
    lines = [f"vault  {report['vault']['url']} ({report['vault']['migrations']})"]
    processes = report["processes"]
    alive = sum(p["state"] == "alive" for p in processes)
    lines.append(f"processes  {alive} alive, {len(processes) - alive} gone")
    lines += _table(
        ["ID", "HOST", "PID", "VERSION", "STATE", "SEEN", "LEASES"],
        [
            [
                p["id"],
                p["host"],
                str(p["pid"]),
                p["version"],
                p["state"],
                _ago(p["seen_ago"]),
                str(len(p["leases"])),
            ]
            for p in processes
        ],
    )
    lines.append(f"leases  {sum(lease['held'] for lease in report['leases'])} held")
    lines += _table(
        ["NAME", "OWNER", "EPOCH", "EXPIRES"],
        [
            [
                lease["name"],
                lease["owner"],
                str(lease["epoch"]),
                f"in {_span(lease['expires_in'])}" if lease["held"] else f"{_span(-lease['expires_in'])} ago",
            ]
            for lease in report["leases"]
        ],
    )
    lines.append("adapters")
    lines += _table(
        ["PROCESS", "PLATFORM", "STATE"],
        [
            [p["id"], platform, detail]
            for p in processes
            for platform, state in sorted(p["adapters"].items())
            for detail in _describe(state)
        ],
    )
    outbox = report["outbox"]
    pending = sum(entry["pending"] for entry in outbox.values())
    dead = sum(entry["dead"] for entry in outbox.values())
    lines.append(f"outbox  {pending} pending, {dead} dead")
    lines += _table(
        ["PLATFORM", "TARGET", "PENDING", "DEAD", "OLDEST", "NEXT", "WHY"],
        [
            [
                platform,
                t["target"],
                str(t["pending"]),
                str(t["dead"]),
                _span(t["oldest_pending_age"]),
                _due(t),
                _why(t),
            ]
            for platform, entry in sorted(outbox.items())
            for t in entry["targets"]
        ],
    )
    charts = report.get("charts") or {}
    if charts.get("font"):
        lines.append(f"charts  odds pictures drawn with {charts['font']}")
    elif charts:
        lines.append(f"charts  no odds pictures (text only): {charts.get('problem')}")
    return lines


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    if not rows:
        return ["  (none)"]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    return [
        "  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]


def _describe(state: Any, prefix: str = "") -> list[str]:
    """One line per table of an adapter's status, nested tables after their parent's plain values:
    ``networks: libera: owned=yes connected=yes nick=Nightcap``."""
    if not isinstance(state, dict):
        return [prefix + _value(state)]
    nested = {k: v for k, v in state.items() if isinstance(v, dict) and v}
    flat = " ".join(f"{k}={_value(v)}" for k, v in state.items() if k not in nested)
    lines = [(prefix + flat).strip() or "-"] if flat or not nested else []
    for key, value in nested.items():
        lines += _describe(value, f"{prefix}{key}: ")
    return lines


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value) or "-"
    if value is None:
        return "-"
    return str(value)


def _due(target: dict[str, Any]) -> str:
    if not target["pending"] or target.get("due_in") is None:
        return "-"
    return "now" if target["due_in"] < 1 else f"in {_span(target['due_in'])}"


def _why(target: dict[str, Any]) -> str:
    """Why the head of a target's queue waits, in one cell: its last error (cut), after how many
    failed attempts; "-" when it simply waits its turn."""
    error = target.get("last_error")
    if not target["pending"] or not error:
        return "-"
    first = " ".join(str(error).split())
    cut = first if len(first) <= 60 else first[:59] + "\u2026"
    attempts = target.get("attempts") or 0
    return f"{cut} (after {attempts} failed attempts)" if attempts else cut


def _ago(seconds: float | None) -> str:
    return "-" if seconds is None else f"{_span(seconds)} ago"


def _span(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    if whole < 86400:
        return f"{whole // 3600}h{whole % 3600 // 60:02d}m"
    return f"{whole // 86400}d{whole % 86400 // 3600:02d}h"
