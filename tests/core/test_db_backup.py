"""``gateway db backup PATH``: a consistent online backup of a SQLite vault. While a gateway writes,
the backup holds every roll committed before it began, passes ``PRAGMA integrity_check``, and is
written whole or not at all; a PostgreSQL vault and an existing PATH are refused in one line."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from gateway.testing import POSTGRES_URL_VARIABLE, start_chat
from gateway.vault.backup import BackupRefused, backup

ROOT = Path(__file__).resolve().parents[2]
GATEWAY = [sys.executable, "-m", "gateway"]
TOKEN = "backup-test-token-0123456789"


def environ() -> dict[str, str]:
    env = {**os.environ, "GATEWAY_NO_VENV": "1", "PYTHONPATH": str(ROOT)}
    env.pop("GATEWAY_VAULT_URL", None)
    return env


def db_backup(config: Path, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GATEWAY, "--config", str(config), "db", "backup", str(path)],
        capture_output=True,
        text=True,
        env=environ(),
        cwd=config.parent,
        timeout=120,
    )


def write_config(tmp_path: Path, url: str, **extra: str) -> Path:
    config = tmp_path / "gateway.toml"
    lines = [f'[vault]\nurl = "{url}"', *(f"[{k}]\n{v}" for k, v in extra.items())]
    config.write_text("\n".join(lines) + "\n")
    return config


def refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr, done.stderr
    for word in words:
        assert word in done.stderr, done.stderr


async def rolled_vault(url: str, rolls: int) -> None:
    chat = await start_chat(url)
    try:
        for _ in range(rolls):
            chat.dice.extend([9, 5, 10])
            assert (await chat.one("roll 3", "bob")).error is None
    finally:
        await chat.stop()


def another_roll(conn: sqlite3.Connection, n: int) -> None:
    """Commit one more roll_log row (a copy of the first under a new public id)."""
    columns = [r[1] for r in conn.execute("PRAGMA table_info(roll_log)") if r[1] not in ("id", "public_id")]
    names = ", ".join(columns)
    conn.execute(
        f"INSERT INTO roll_log (public_id, {names}) SELECT ?, {names} FROM roll_log ORDER BY id LIMIT 1",
        (f"writer-{n:04d}",),
    )


async def test_the_backup_is_the_snapshot_it_began_with(tmp_path: Path, sqlite_url: str) -> None:
    """A commit between every step of the backup neither restarts it nor gets into it."""
    await rolled_vault(sqlite_url, 40)
    database, path = tmp_path / "vault.db", tmp_path / "backup.db"
    writer = sqlite3.connect(database, isolation_level=None, check_same_thread=False)
    steps: list[int] = []

    def between_steps(status: int, remaining: int, total: int) -> None:
        steps.append(total)
        another_roll(writer, len(steps))

    report = await asyncio.to_thread(backup, database, path, pages=1, progress=between_steps)
    assert len(steps) == steps[0] > 10  # one page a step, one pass: it never started over
    assert (report.rolls, report.integrity) == (40, "ok")
    assert writer.execute("SELECT count(*) FROM roll_log").fetchone()[0] == 40 + len(steps)
    writer.close()
    with sqlite3.connect(path) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        later = "SELECT count(*) FROM roll_log WHERE public_id LIKE 'writer-%'"
        assert copy.execute(later).fetchone()[0] == 0
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal
    assert report.size == path.stat().st_size
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("backup")) == ["backup.db"]


async def test_the_cli_reports_integrity_rolls_and_size(tmp_path: Path, sqlite_url: str) -> None:
    await rolled_vault(sqlite_url, 3)
    config = write_config(tmp_path, sqlite_url)
    done = await asyncio.to_thread(db_backup, config, tmp_path / "copy.db")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"backup of {tmp_path / 'vault.db'} written to {tmp_path / 'copy.db'}"
    assert lines[1:3] == ["integrity_check: ok", "roll_log rows: 3"]
    assert lines[3].startswith("size: ") and str((tmp_path / "copy.db").stat().st_size) in lines[3]


async def test_an_existing_path_is_refused_and_left_alone(tmp_path: Path, sqlite_url: str) -> None:
    await rolled_vault(sqlite_url, 1)
    target = tmp_path / "keep.db"
    target.write_bytes(b"precious")
    done = await asyncio.to_thread(db_backup, write_config(tmp_path, sqlite_url), target)
    refused_in_one_line(done, "exists")
    assert target.read_bytes() == b"precious"
    assert not (tmp_path / "keep.db.tmp").exists()
    with pytest.raises(BackupRefused):
        backup(tmp_path / "vault.db", target)


def test_a_postgresql_vault_is_refused_naming_pg_dump(tmp_path: Path) -> None:
    url = os.environ.get(POSTGRES_URL_VARIABLE) or "postgresql+asyncpg://gateway@127.0.0.1:5432/vault"
    done = db_backup(write_config(tmp_path, url), tmp_path / "copy.db")
    refused_in_one_line(done, "pg_dump")
    assert not (tmp_path / "copy.db").exists()


def test_a_missing_vault_is_refused(tmp_path: Path) -> None:
    done = db_backup(write_config(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'none.db'}"), tmp_path / "c.db")
    refused_in_one_line(done, "no SQLite vault")
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "c.db").exists()


# ---------------------------------------------------------------- a real gateway, rolling meanwhile


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def roll(port: int) -> str:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/v1/command",
        data=json.dumps({"text": "roll 3"}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return str(json.loads(response.read())["replies"][0]["result"]["id"])


class Roller(threading.Thread):
    """``roll 3`` through the HTTP API in a loop; each id with the time its reply came back."""

    def __init__(self, port: int, limit: int = 5000) -> None:
        super().__init__(daemon=True)
        self.port, self.limit = port, limit
        self.answered: list[tuple[float, str]] = []
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.stop.is_set() and len(self.answered) < self.limit:
                rolled = roll(self.port)
                self.answered.append((time.monotonic(), rolled))
        except BaseException as exc:  # reported by the test
            self.error = exc


def wait_until(done: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def test_backup_of_a_running_gateway_holds_every_roll_answered_before_it(tmp_path: Path) -> None:
    port = free_port()
    url = f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}"
    config = write_config(tmp_path, url, **{"http.tokens": f'load = "{TOKEN}"'})
    log = (tmp_path / "serve.log").open("w")
    serve = subprocess.Popen(
        [*GATEWAY, "--config", str(config), "serve", "--port", str(port)],
        cwd=tmp_path,
        env=environ(),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    roller = Roller(port)
    try:
        wait_until(lambda: healthy(port) or serve.poll() is not None, 60, "serve never answered /healthz")
        assert serve.poll() is None, (tmp_path / "serve.log").read_text()
        roller.start()
        wait_until(lambda: len(roller.answered) >= 30 or roller.error, 60, "no rolls came back")
        started = time.monotonic()
        done = db_backup(config, tmp_path / "backup.db")
        finished = time.monotonic()
        wait_until(lambda: roller.answered[-1][0] > finished or roller.error, 30, "rolls stopped")
        roller.stop.set()
        roller.join(30)
    finally:
        serve.terminate()
        serve.wait(30)
        log.close()
    assert roller.error is None, roller.error
    assert done.returncode == 0, done.stderr
    assert "integrity_check: ok" in done.stdout
    before = {rolled for answered, rolled in roller.answered if answered < started}
    assert len(before) >= 30
    with sqlite3.connect(f"file:{tmp_path / 'backup.db'}?mode=ro", uri=True) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        held = {r[0] for r in copy.execute("SELECT public_id FROM roll_log")}
    assert before <= held
    assert f"roll_log rows: {len(held)}" in done.stdout
    # Rolls went on while the backup ran: it did not stop the gateway's writes.
    assert any(started < answered < finished for answered, _ in roller.answered)
