"""``gateway status [--json]``: the deployment as the vault sees it, not as one process's HTTP does.

Each process (from its heartbeat row: alive when seen within two of its heartbeats, else gone), the
leases and who holds them, each adapter's state as its process last reported it, and the outbox's
pending and dead rows per platform and target with the age of the oldest pending row. Every age is
measured on the database's clock, like the rows themselves. A vault that cannot be reached or is not
migrated exits 2 with one line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlmodel import select

from gateway import queue
from gateway.plugins import Plugins, build_plugin_manager
from gateway.readiness import Readiness
from gateway.settings import Settings
from gateway.vault.columns import DB_NOW, UTCDateTime
from gateway.vault.engine import Vault
from gateway.vault.models import LeaseRow, ProcessRow
from gateway.vault.prepared import Prepared

NOW = {
    dialect: Prepared(text(f"SELECT {now} AS now").columns(now=UTCDateTime()))
    for dialect, now in DB_NOW.items()
}


class Unavailable(Exception):
    """The vault cannot be read (unreachable, not migrated): one line for the operator."""


def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    try:
        report = asyncio.run(gather(settings))
    except Unavailable as exc:
        print(f"gateway status: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report, indent=2) if args.json else "\n".join(render(report)))
    return 0


async def gather(settings: Settings) -> dict[str, Any]:
    """The whole report as one JSON-ready document."""
    try:
        url = make_url(settings.vault.url)
        if url.get_backend_name() == "sqlite" and not Path(url.database or "").is_file():
            raise Unavailable(f"no vault at {url.database}")  # and do not leave an empty one there
        vault = Vault(settings.vault.url, busy_timeout_ms=settings.vault.busy_timeout_ms)
    except Unavailable:
        raise
    except Exception as exc:
        raise Unavailable(f"bad [vault] url: {exc}") from None
    try:
        locations = Plugins(build_plugin_manager(settings.plugins.block)).migration_locations()
        verdict = await Readiness(vault, locations).check(fresh=True)
        if not verdict.ready:
            raise Unavailable(verdict.reason)
        async with vault.unit() as unit:
            row = await unit.first(NOW[unit.dialect], {})
            assert row is not None
            now: datetime = row[0]
            processes = list((await unit.session.exec(select(ProcessRow))).all())
            leases = list((await unit.session.exec(select(LeaseRow).order_by(LeaseRow.name))).all())
            backlog = await queue.backlog(unit)
    except Unavailable:
        raise
    except Exception as exc:
        raise Unavailable(f"the vault cannot be read: {type(exc).__name__}: {exc}".splitlines()[0]) from None
    finally:
        await vault.dispose()
    default_beat = settings.cluster.failover_seconds / 3
    return {
        "vault": {"url": url.render_as_string(hide_password=True), "migrations": verdict.reason},
        "now": now.isoformat(),
        "processes": [_process(p, now, default_beat) for p in sorted(processes, key=lambda p: p.started_at)],
        "leases": [_lease(lease, now) for lease in leases],
        "outbox": _outbox(backlog, now),
        "charts": _charts(settings),
    }


def _charts(settings: Settings) -> dict[str, Any]:
    """The font odds pictures are drawn with on this machine, or why there are none (then Discord
    and Matrix send the text alone)."""
    try:
        from gateway.charts import fonts
    except ImportError as exc:  # Pillow missing from this installation
        return {"font": None, "problem": f"Pillow cannot be imported ({exc})"}
    path, why = fonts.find(settings.gateway.chart_font)
    return {"font": path, "problem": why or None}


def _age(now: datetime, then: datetime | None) -> float | None:
    return None if then is None else round(max(0.0, (now - then).total_seconds()), 3)


def _process(row: ProcessRow, now: datetime, default_beat: float) -> dict[str, Any]:
    state = row.state or {}
    beat = float(state.get("heartbeat_seconds") or default_beat)
    seen = _age(now, row.seen_at) or 0.0
    return {
        "id": row.id,
        "host": row.host,
        "pid": row.pid,
        "version": row.version,
        "started_at": row.started_at.isoformat(),
        "seen_at": row.seen_at.isoformat(),
        "seen_ago": seen,
        "state": "alive" if seen <= 2 * beat else "gone",
        "heartbeat_seconds": beat,
        "leases": state.get("leases") or {},
        "adapters": state.get("adapters") or {},
    }


def _lease(row: LeaseRow, now: datetime) -> dict[str, Any]:
    left = (row.expires_at - now).total_seconds()
    return {
        "name": row.name,
        "owner": row.owner,
        "epoch": row.epoch,
        "expires_at": row.expires_at.isoformat(),
        "expires_in": round(left, 3),
        "held": left > 0,
    }


def _outbox(backlog: list[queue.Backlog], now: datetime) -> dict[str, Any]:
    platforms: dict[str, dict[str, Any]] = {}
    for item in backlog:
        entry = platforms.setdefault(
            item.platform, {"pending": 0, "dead": 0, "oldest_pending_age": None, "targets": []}
        )
        age = _age(now, item.oldest_pending)
        entry["pending"] += item.pending
        entry["dead"] += item.dead
        if age is not None and (entry["oldest_pending_age"] is None or age > entry["oldest_pending_age"]):
            entry["oldest_pending_age"] = age
        due = None if item.next_attempt is None else round((item.next_attempt - now).total_seconds(), 3)
        entry["targets"].append(
            {
                "target": item.target,
                "pending": item.pending,
                "dead": item.dead,
                "oldest_pending_age": age,
                # why the head of the queue waits: its failed attempts, last error, seconds until due
                "attempts": item.attempts,
                "last_error": item.last_error,
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
