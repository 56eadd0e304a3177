"""Benchmark: gateway CPU per command for a Nightcap character's roll against a bare ``roll 5``.

Each case is one command said over and over through the router, on a SQLite vault of its own kind:

- ``roll 5`` by a caller with no character (the baseline every ratio divides by);
- ``roll 5``, ``roll physical``, ``roll physical +1`` and ``roll physical wp`` by the owner of an
  approved character (Physical 3), with the chronicle's wound penalties off and on (on: the
  character has 4 damage, so the trait rolls take -1).

CPU is ``time.process_time`` (the SQLite driver runs inline, so the process's CPU is the command's),
summed per case while the cases take turns in slices, so every case sees the same machine load.
With ``--callgrind`` each case also runs alone under ``valgrind --tool=callgrind``, twice (``--n``
commands and none), and the difference over ``--n`` is its instruction count per command, which
does not depend on the load at all.

Run: ``.venv/bin/python -m tests.bench.charroll [--n 2000] [--slice 100] [--callgrind]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from sqlalchemy import text

from gateway.app import Gateway
from gateway.dice import ScriptedDice
from gateway.logging import configure_logging
from gateway.testing import Chat, Clock, make_settings
from gateway.types import Channel, Identity, InboundMessage
from tests.nightcap.helpers import build

COMMANDS = ("roll 5", "roll physical", "roll physical +1", "roll physical wp")
BASELINE = "bare roll 5"
Loop = Callable[[int], Awaitable[None]]


def cases() -> list[tuple[str, bool, str]]:
    """(label, wound penalties on, command); the baseline first."""
    found = [(BASELINE, False, "roll 5")]
    for wounds in (False, True):
        state = "on" if wounds else "off"
        found += [(f"{command} (wounds {state})", wounds, command) for command in COMMANDS]
    return found


async def start(path: Path, wounds: bool) -> tuple[Gateway, Chat]:
    settings = make_settings(f"sqlite+aiosqlite:///{path}", nightcap={"wound_penalties": wounds})
    gateway = Gateway(settings, platforms=())  # the system's dice, not a script
    await gateway.upgrade_vault()
    await gateway.start()
    chat = Chat(gateway=gateway, dice=ScriptedDice([]), clock=Clock())
    await build(chat)  # Mira, approved, Physical 3
    async with gateway.services.vault.transaction() as session:
        # Willpower for every `wp` roll, and 4 damage: -1 when the chronicle has wound penalties on.
        await session.exec(  # type: ignore[call-overload]
            text("UPDATE pool SET current = 1000000000, maximum = 1000000000 WHERE name = 'willpower'")
        )
        await session.exec(text("UPDATE pool SET current = 4 WHERE name = 'damage'"))  # type: ignore[call-overload]
    return gateway, chat


async def said(gateway: Gateway, who: str, command: str) -> Loop:
    """``command`` said by ``who`` over and over (the first time outside the count: it warms caches
    and makes a new caller's rows)."""
    message = InboundMessage(Identity("console", who, who.title()), Channel("console", "main"), command)
    handle = gateway.services.handle
    first = await handle(message)
    assert first[0].error is None, first

    async def run(n: int) -> None:
        for _ in range(n):
            replies = await handle(message)
            assert replies[0].error is None, replies

    return run


async def loops(directory: Path, only: str | None) -> tuple[dict[str, Loop], list[Gateway]]:
    """Every case's loop (or only the one labelled ``only``): one gateway per wound setting, the
    bare caller in the first."""
    found: dict[str, Loop] = {}
    gateways: dict[bool, Gateway] = {}
    for label, wounds, command in cases():
        if only is not None and label != only:
            continue
        if wounds not in gateways:
            gateways[wounds] = (await start(directory / f"wounds-{wounds}.db", wounds))[0]
        found[label] = await said(gateways[wounds], "bare" if label == BASELINE else "mira", command)
    return found, list(gateways.values())


async def measure(directory: Path, n: int, slice_n: int) -> dict[str, float]:
    """CPU seconds per command for every case, the cases taking turns ``slice_n`` commands at a time."""
    found, gateways = await loops(directory, None)
    spent = dict.fromkeys(found, 0.0)
    for done in range(0, n, slice_n):
        for label, loop in found.items():
            began = time.process_time()
            await loop(min(slice_n, n - done))
            spent[label] += time.process_time() - began
    for gateway in gateways:
        await gateway.stop()
    return {label: seconds / n for label, seconds in spent.items()}


async def run_one(directory: Path, label: str, n: int) -> None:
    """One case alone, for callgrind: set up, then ``n`` commands."""
    found, gateways = await loops(directory, label)
    await found[label](n)
    for gateway in gateways:
        await gateway.stop()


def instructions(label: str, n: int) -> int:
    """Instructions callgrind counts for a whole run of one case with ``n`` commands."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "tests.bench.charroll",
            "--one",
            label,
            "--n",
            str(n),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ})
        match = re.search(r"Collected : (\d+)", done.stderr)
        assert match, done.stderr[-2000:]
        return int(match.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000, help="commands per case (default 2000)")
    parser.add_argument("--slice", type=int, default=100, help="commands per turn (default 100)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (slow)")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # one case alone, under callgrind
    args = parser.parse_args()
    configure_logging("json", "error")
    with tempfile.TemporaryDirectory() as tmp:
        if args.one is not None:
            asyncio.run(run_one(Path(tmp), args.one, args.n))
            return
        cpu = asyncio.run(measure(Path(tmp), args.n, args.slice))
    counts: dict[str, float] = {}
    if args.callgrind:
        for label, _, _ in cases():
            counts[label] = (instructions(label, args.n) - instructions(label, 0)) / args.n
    width = max(len(label) for label in cpu)
    header = f"{'command':<{width}}  {'CPU/cmd':>9}  {'÷ bare':>6}"
    if counts:
        header += f"  {'instr/cmd':>10}  {'÷ bare':>6}"
    print(f"{args.n} commands per case")
    print(header)
    for label, seconds in cpu.items():
        line = f"{label:<{width}}  {seconds * 1e3:7.3f}ms  {seconds / cpu[BASELINE]:6.2f}"
        if counts:
            line += f"  {counts[label]:10.0f}  {counts[label] / counts[BASELINE]:6.2f}"
        print(line)


if __name__ == "__main__":
    main()
