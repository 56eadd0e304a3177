"""``gateway db backup PATH``: a consistent online backup of a SQLite vault, taken while it runs.

SQLite's backup API copies the pages in steps, into ``PATH.tmp``; the copy is checked with
``PRAGMA integrity_check`` and only then renamed to ``PATH``, so PATH is either a whole, sound backup
or absent. The vault is in WAL mode, where a reader never blocks the writer: the backup holds one read
transaction across its steps, so it copies one snapshot (every commit before it began) and does not
start over each time the running gateway commits, as a backup between steps of its own would.

A PostgreSQL vault is backed up with PostgreSQL's own tools (``pg_dump -Fc``, ``pg_basebackup``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from gateway.core.settings import Settings

STEP_PAGES = 256  # pages per backup step (1 MiB at SQLite's default page size)


class BackupRefused(Exception):
    """The backup must not start; the message is the line the user sees."""


class BackupFailed(Exception):
    """The copy was taken but is not sound; it was removed."""


@dataclass(frozen=True)
class BackupReport:
    path: Path
    size: int
    rolls: int
    integrity: str


def sqlite_database(url: str) -> Path:
    """The file of a SQLite vault URL; ``BackupRefused`` for any other vault."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise BackupRefused(f"not a database URL: {url}") from exc
    if parsed.get_backend_name() != "sqlite":
        raise BackupRefused(
            "the vault is on PostgreSQL: back it up with pg_dump -Fc (or pg_basebackup), "
            "not gateway db backup"
        )
    database = Path(parsed.database or "")
    if not database.is_file():
        raise BackupRefused(f"there is no SQLite vault at {database}")
    return database


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(
    database: Path,
    path: Path,
    *,
    pages: int = STEP_PAGES,
    busy_timeout: float = 5.0,
    progress: Callable[[int, int, int], object] | None = None,
) -> BackupReport:
    """Back the SQLite vault ``database`` up to ``path`` (which must not exist); blocking, so run it
    in a thread of its own if an event loop is about. ``progress(status, remaining, total)`` is
    called after each step, as ``sqlite3.Connection.backup`` calls it."""
    if path.exists():
        raise BackupRefused(f"{path} exists: give a new file")
    tmp = path.with_name(path.name + ".tmp")
    tmp.unlink(missing_ok=True)  # what an interrupted backup left
    try:
        source = sqlite3.connect(database, timeout=busy_timeout, isolation_level=None)
        with contextlib.closing(source):
            source.execute("PRAGMA query_only=ON")
            wal = source.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            if wal:
                # The snapshot: every step reads it, however often the gateway commits meanwhile.
                source.execute("BEGIN")
                source.execute("SELECT count(*) FROM sqlite_master").fetchone()
            with contextlib.closing(sqlite3.connect(tmp, isolation_level=None)) as target:
                source.backup(target, pages=pages, progress=progress)
                target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            if wal:
                source.execute("COMMIT")
        with contextlib.closing(sqlite3.connect(f"file:{tmp}?mode=ro", uri=True)) as copy:
            integrity = "; ".join(row[0] for row in copy.execute("PRAGMA integrity_check"))
            rolls = int(copy.execute("SELECT count(*) FROM roll_log").fetchone()[0])
        if integrity != "ok":
            raise BackupFailed(f"the backup fails PRAGMA integrity_check: {integrity[:200]}")
        _fsync(tmp)
        os.replace(tmp, path)
        _fsync(path.parent)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return BackupReport(path=path, size=path.stat().st_size, rolls=rolls, integrity=integrity)


def _size(size: int) -> str:
    value = float(size)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            return f"{size} bytes" if unit == "bytes" else f"{value:.1f} {unit} ({size} bytes)"
        value /= 1024
    raise AssertionError("unreachable")


def run_cli(args: argparse.Namespace, settings: Settings) -> int:
    try:
        database = sqlite_database(settings.vault.url)
    except BackupRefused as exc:
        print(f"gateway db backup: {exc}", file=sys.stderr)
        return 2
    try:
        report = backup(database, Path(args.path), busy_timeout=settings.vault.busy_timeout_ms / 1000)
    except BackupRefused as exc:
        print(f"gateway db backup: {exc}", file=sys.stderr)
        return 2
    except (BackupFailed, OSError, sqlite3.Error) as exc:
        print(f"gateway db backup: {database} was not backed up: {exc}", file=sys.stderr)
        return 1
    print(f"backup of {database} written to {report.path}")
    print(f"integrity_check: {report.integrity}")
    print(f"roll_log rows: {report.rolls}")
    print(f"size: {_size(report.size)}")
    return 0
