"""Benchmark: CPU seconds of the quick ``gateway`` commands against ``python -c pass``.

Each command runs as a new process, as a user types it (``python -m gateway ...`` from the
checkout's ``.venv``, no venv hand-over), ``--rounds`` times taking turns; the figure is the
median of the child's user + system CPU (``resource.getrusage(RUSAGE_CHILDREN)``), so a busy
machine's waiting is not counted. The target (issue 37): each under 0.3 s. Also the console's first
answer to ``roll 1`` piped in: the CPU seconds it used until the reply (read from ``/proc``), and the
wall seconds (target under 1 s; on a busy machine the wall time mostly measures the others' work).

Python writes its bytecode caches on a command's first run (uv installs without them): a round
that is not counted runs each command first, and ``PYTHONDONTWRITEBYTECODE`` is dropped from the
children's environment, so the figures are those of every run after a user's first.

Run: ``.venv/bin/python -m tests.bench.cli_start [--rounds 5]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
TARGET = 0.3

CASES: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "gateway --version": [sys.executable, "-m", "gateway", "--version"],
    "gateway --help": [sys.executable, "-m", "gateway", "--help"],
    "gateway config check FILE": [sys.executable, "-m", "gateway", "config", "check", "gateway.toml"],
    "gateway plugins": [sys.executable, "-m", "gateway", "plugins"],
    "gateway status": [sys.executable, "-m", "gateway", "status"],
}
CONFIG = '[gateway]\ntimezone = "Europe/Prague"\n[http]\nport = 9000\n'


def cpu_of(
    command: list[str], cwd: Path, env: dict[str, str], stdin: str | None = None
) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(command, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def first_answer(command: list[str], cwd: Path, env: dict[str, str], line: str) -> tuple[float, float]:
    """(wall seconds until the console printed its first reply to ``line``, the CPU seconds it had
    used by then): on a quiet machine the two nearly meet, on a busy one the CPU is the fair figure."""
    started = time.monotonic()
    with subprocess.Popen(
        command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        proc.stdout.readline()
        wall = time.monotonic() - started
        cpu = _cpu_so_far(proc.pid)
        proc.stdin.close()
        proc.stdout.read()
    return wall, cpu


def _cpu_so_far(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux's /proc; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    env = {
        k: v for k, v in os.environ.items() if not k.startswith("GATEWAY_") and k != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(GATEWAY_NO_VENV="1", PYTHONPATH=str(REPO))
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        (cwd / "gateway.toml").write_text(CONFIG)
        # A vault for `status` to read: made once, outside the timing.
        subprocess.run(
            [sys.executable, "-m", "gateway", "db", "upgrade"], cwd=cwd, env=env, capture_output=True
        )
        cpu: dict[str, list[float]] = {name: [] for name in CASES}
        console_command = [sys.executable, "-m", "gateway", "console", "--as", "mira"]
        for command in CASES.values():  # the warm-up round: bytecode caches written, not counted
            cpu_of(command, cwd, env)
        first_answer(console_command, cwd, env, "roll 1")
        for _ in range(args.rounds):
            for name, command in CASES.items():
                cpu[name].append(cpu_of(command, cwd, env)[0])
        console = [first_answer(console_command, cwd, env, "roll 1") for _ in range(args.rounds)]
    base = statistics.median(cpu["python -c pass"])
    print(f"{'command':<28} {'CPU s (median)':>14} {'minus python':>13}  target")
    for name, values in cpu.items():
        median = statistics.median(values)
        verdict = "" if name == "python -c pass" else ("ok" if median < TARGET else f"over {TARGET}")
        print(f"{name:<28} {median:>14.3f} {median - base:>13.3f}  {verdict}")
    wall = statistics.median(w for w, _ in console)
    print(
        f"{'gateway console: roll 1':<28} {statistics.median(c for _, c in console):>14.3f} "
        f"{'':>13}  CPU until its first answer (target < 1 s); {wall:.2f} s wall"
    )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times grow with it)")


if __name__ == "__main__":
    main()
