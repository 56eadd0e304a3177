"""``gateway console``: interactive with a prompt and line editing on a terminal, line by line when piped.

Piped input is read to its end and the exit status is 0 whatever the commands did: a failed command
is an answer, not a crash.
"""

from __future__ import annotations

import sys
from typing import TextIO

from adapters.console.adapter import CHANNEL, console_message, render
from adapters.console.terminal import read_line
from gateway import Gateway, Settings, channels


async def run_console(
    settings: Settings,
    *,
    name: str,
    storyteller: bool = False,
    system: str | None = None,
    as_json: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    interactive = stdin.isatty()
    # The console's own adapter is this loop; only an interactive session shows the ST log live.
    gateway = Gateway(settings, platforms=("console",) if interactive else ())
    if "console" in gateway.adapters:
        gateway.adapters["console"].read_terminal = False  # type: ignore[attr-defined]
    await gateway.start()
    try:
        if system:
            if system not in gateway.plugins.systems():
                print(
                    f"No rule system {system!r}. Installed: {', '.join(gateway.plugins.systems())}",
                    file=stdout,
                )
                return 2
            await channels.set_system(gateway.services.vault, CHANNEL, system)
        if interactive:
            await _interactive(gateway, name, storyteller, as_json, stdout)
        else:
            for line in stdin:
                await _one(gateway, line.rstrip("\n"), name, storyteller, as_json, stdout)
    finally:
        await gateway.stop()
    return 0


async def _one(gateway: Gateway, line: str, name: str, st: bool, as_json: bool, out: TextIO) -> None:
    for reply in await gateway.services.handle(console_message(line, name=name, storyteller=st)):
        print(render(reply, as_json=as_json), file=out, flush=True)


async def _interactive(gateway: Gateway, name: str, st: bool, as_json: bool, out: TextIO) -> None:
    print("Nightcap gateway console. Type help for commands, Ctrl-D to leave.", file=out)
    while True:
        try:
            line = await read_line(f"{name}> ")
        except (EOFError, KeyboardInterrupt):
            print(file=out)
            return
        await _one(gateway, line, name, st, as_json, out)
