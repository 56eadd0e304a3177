"""Benchmark: gateway CPU per command for a Nightcap character's roll against a bare ``roll 5``.

Each case is one command said over and over through the router, on a SQLite vault of its own kind:

- ``roll 5`` by a caller with no character (the baseline every ratio divides by);
- ``roll 5``, ``roll physical``, ``roll physical +1`` and ``roll physical wp`` by the owner of an
  approved character (Physical 3), with the chronicle's wound penalties off and on (on: the
  character has 4 damage, so the trait rolls take -1).

CPU is ``time.process_time`` (the SQLite driver runs inline, so the process's CPU is the command's),
summed per case while the cases take turns in slices, so every case sees the same machine load.
With ``--callgrind`` the cases run again, in one process under ``valgrind --tool=callgrind`` that
counts instructions only while a case runs (``--callgrind-n`` commands each, default 100): a figure
that does not depend on the machine's load at all. That run takes minutes (starting the gateways
under valgrind is most of it).

Run: ``.venv/bin/python -m tests.bench.charroll [--n 2000] [--slice 100] [--callgrind [--callgrind-n 100]]``.
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

from gateway.core.app import Gateway
from gateway.core.dice import ScriptedDice
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.ops.logging import configure_logging
from gateway.testing import Chat, Clock, make_settings
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


async def loops(directory: Path) -> tuple[dict[str, Loop], list[Gateway]]:
    """Every case's loop: one gateway per wound setting, the bare caller in the first."""
    found: dict[str, Loop] = {}
    gateways: dict[bool, Gateway] = {}
    for label, wounds, command in cases():
        if wounds not in gateways:
            gateways[wounds] = (await start(directory / f"wounds-{wounds}.db", wounds))[0]
        found[label] = await said(gateways[wounds], "bare" if label == BASELINE else "mira", command)
    return found, list(gateways.values())


async def measure(directory: Path, n: int, slice_n: int) -> dict[str, float]:
    """CPU seconds per command for every case, the cases taking turns ``slice_n`` commands at a time."""
    found, gateways = await loops(directory)
    spent = dict.fromkeys(found, 0.0)
    for done in range(0, n, slice_n):
        for label, loop in found.items():
            began = time.process_time()
            await loop(min(slice_n, n - done))
            spent[label] += time.process_time() - began
    for gateway in gateways:
        await gateway.stop()
    return {label: seconds / n for label, seconds in spent.items()}


def counted(directory: Path, n: int) -> None:
    """Under callgrind: every case's ``n`` commands inside a ``sys.call_tracing`` call, a C function
    nothing else calls, which ``instructions`` has callgrind collect inside and dump after."""
    loop = asyncio.new_event_loop()
    found, gateways = loop.run_until_complete(loops(directory))
    for label, _, _ in cases():
        sys.call_tracing(loop.run_until_complete, (found[label](n),))
    for gateway in gateways:
        loop.run_until_complete(gateway.stop())
    loop.close()


def _total(dump: str) -> int:
    found = re.search(r"^(?:totals|summary): (\d+)", dump, re.MULTILINE)
    assert found, dump[:500]
    return int(found.group(1))


def instructions(n: int) -> dict[str, float]:
    """Instructions per command of every case, counted by callgrind (one run, the cases in turn)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = [
            "valgrind",
            "--tool=callgrind",
            "--collect-atstart=no",
            "--toggle-collect=sys_call_tracing",
            "--dump-after=sys_call_tracing",
            f"--callgrind-out-file={out}",
            sys.executable,
            "-m",
            "tests.bench.charroll",
            "--counted",
            "--n",
            str(n),
        ]
        subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ})
        dumps = sorted(Path(tmp).glob("callgrind.out.*"), key=lambda p: int(p.suffix[1:]))
        totals = [_total(dump.read_text()) for dump in dumps]
    labels = [label for label, _, _ in cases()]
    assert len(totals) == len(labels), f"{len(totals)} callgrind dumps for {len(labels)} cases"
    return {label: total / n for label, total in zip(labels, totals, strict=True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=2000, help="commands per case (default 2000)")
    parser.add_argument("--slice", type=int, default=100, help="commands per turn (default 100)")
    parser.add_argument("--callgrind", action="store_true", help="also count instructions (slow)")
    parser.add_argument("--callgrind-n", type=int, default=100, help="commands per case under callgrind")
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)  # the run under callgrind
    args = parser.parse_args()
    configure_logging("json", "error")
    with tempfile.TemporaryDirectory() as tmp:
        if args.counted:
            counted(Path(tmp), args.n)
            return
        cpu = asyncio.run(measure(Path(tmp), args.n, args.slice))
    counts = instructions(args.callgrind_n) if args.callgrind else {}
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
