"""The long random-input run: ``python -m tests.fuzz --commands 100000``.

Starts a real ``gateway serve`` (a subprocess, SQLite in a temporary folder, JSON logs), makes one
channel per installed rule system, then sends random command lines from every command of every system
(``tests/fuzz/words.py``) through ``POST /api/v1/command``, as a Storyteller and as a player, some
with hostile channel / name / Idempotency-Key values. Reports: total, status counts, 5xx,
internal-error replies, tracebacks and error-level lines logged, the server's RSS at start and end,
and the wall time. Exits 1 when any of 5xx, internal errors or tracebacks is not zero.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from tests.fuzz.words import HOSTILE, SYSTEMS, command_names, random_line

TOKENS = {"st": "fuzz-storyteller-token", "player": "fuzz-player-token"}


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    internal: int = 0
    examples: list[str] = field(default_factory=list)

    def note(self, what: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(what[:300])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_server(folder: Path, port: int, group_commit: bool) -> tuple[subprocess.Popen[bytes], Path]:
    tokens = "\n".join(f'{name} = "{token}"' for name, token in TOKENS.items())
    vault = f'[vault]\nowner = "http:st"\ngroup_commit = {"true" if group_commit else "false"}\n'
    (folder / "gateway.toml").write_text(f"{vault}[http.tokens]\n{tokens}\n")
    log = folder / "server.log"
    env = {**os.environ, "GATEWAY_NO_VENV": "1", "GATEWAY_LOG_FORMAT": "json"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gateway", "--config", "gateway.toml", "serve", "--port", str(port)],
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=log.open("wb"),
        stderr=subprocess.STDOUT,
    )
    return proc, log


async def wait_ready(session: aiohttp.ClientSession, base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"gateway serve exited with {proc.returncode}")
        try:
            async with session.get(f"{base}/healthz") as response:
                if response.status == 200:
                    return
        except aiohttp.ClientError:
            pass
        await asyncio.sleep(0.2)
    raise SystemExit("gateway serve did not become ready in 60 s")


async def send(
    session: aiohttp.ClientSession, base: str, who: str, body: dict[str, Any], tally: Tally, key: str | None
) -> None:
    headers = {"Authorization": f"Bearer {TOKENS[who]}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    data = json.dumps(body).encode()  # lone surrogates go out as \\udXXX escapes, as a client may send
    async with session.post(f"{base}/api/v1/command", data=data, headers=headers) as response:
        text = await response.text()
        tally.statuses[response.status] += 1
        if response.status >= 500:
            tally.note(f"{response.status} {body!r}: {text}")
        elif response.status == 200:
            replies = json.loads(text)["replies"]
            if any(r.get("error") == "internal" for r in replies):
                tally.internal += 1
                tally.note(f"internal {body!r}")
        elif "\n" in text.strip() or len(text) > 300:
            tally.note(f"long refusal {response.status} {body!r}: {text}")


def request_for(rng: random.Random, names: dict[str, list[str]]) -> tuple[str, dict[str, Any], str | None]:
    system = rng.choice(SYSTEMS)
    who = "st" if rng.random() < 0.4 else "player"
    body: dict[str, Any] = {"text": random_line(rng, names[system]), "channel": f"fuzz-{system}"}
    if rng.random() < 0.03:
        body["channel"] = rng.choice(HOSTILE)
    if rng.random() < 0.03:
        body["name"] = rng.choice(HOSTILE)
    key = None
    if rng.random() < 0.05:
        key = rng.choice([str(rng.randint(0, 50)), "k" * 300, "\xff\xfe", "é"])
    return who, body, key


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    names = {system: command_names(system) for system in SYSTEMS}
    with tempfile.TemporaryDirectory(prefix="gateway-fuzz-") as tmp:
        folder = Path(tmp)
        port = free_port()
        proc, log = start_server(folder, port, args.group_commit)
        base = f"http://127.0.0.1:{port}"
        tally = Tally()
        try:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60)) as session:
                await wait_ready(session, base, proc)
                for system in SYSTEMS:
                    await send(
                        session,
                        base,
                        "st",
                        {"text": f"system {system}", "channel": f"fuzz-{system}"},
                        tally,
                        None,
                    )
                    await send(
                        session,
                        base,
                        "player",
                        {"text": "char new Mira", "channel": f"fuzz-{system}"},
                        tally,
                        None,
                    )
                rss_start = rss_kib(proc.pid)
                started = time.monotonic()
                queue = iter(range(args.commands))

                async def worker() -> None:
                    for done in queue:
                        who, body, key = request_for(rng, names)
                        await send(session, base, who, body, tally, key)
                        if args.progress and done and done % args.progress == 0:
                            print(f"  {done} sent, {time.monotonic() - started:.0f} s", file=sys.stderr)

                await asyncio.gather(*(worker() for _ in range(args.concurrency)))
                wall = time.monotonic() - started
                rss_end = rss_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
        tracebacks, errors = scan_log(log, tally)
    total = sum(tally.statuses.values()) - 2 * len(SYSTEMS)
    fivexx = sum(n for status, n in tally.statuses.items() if status >= 500)
    report = {
        "commands": total,
        "statuses": dict(sorted(tally.statuses.items())),
        "5xx": fivexx,
        "internal_errors": tally.internal,
        "tracebacks": tracebacks,
        "error_lines": errors,
        "rss_kib_start": rss_start,
        "rss_kib_end": rss_end,
        "rss_growth_kib": rss_end - rss_start,
        "wall_seconds": round(wall, 1),
        "per_second": round(total / wall, 1),
        "examples": tally.examples,
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))
    return 1 if fivexx or tally.internal or tracebacks else 0


def scan_log(log: Path, tally: Tally) -> tuple[int, int]:
    """(tracebacks, error-level lines) in the server's log: JSON lines with an exception or at
    error level, and plain ``Traceback`` lines from the standard library's logging (aiohttp's)."""
    tracebacks = errors = 0
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("Traceback"):
            tracebacks += 1
            continue
        if not line.startswith("{"):
            continue
        event = json.loads(line)
        if event.get("exception"):
            tracebacks += 1
            tally.note(f"traceback: {event.get('event')} {event.get('text', '')!r}")
        if event.get("level") in ("error", "critical"):
            errors += 1
    return tracebacks, errors


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--commands", type=int, default=10_000, help="random command lines to send")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight")
    parser.add_argument("--seed", type=int, default=21, help="seed of the random lines")
    parser.add_argument("--group-commit", action="store_true", help="run the vault with group commit")
    parser.add_argument("--progress", type=int, default=0, help="print progress every N commands")
    sys.exit(asyncio.run(run(parser.parse_args())))


if __name__ == "__main__":
    main()
