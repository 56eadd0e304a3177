"""``gateway console``: interactive with a prompt on a terminal (prompt_toolkit: line editing,
history, Tab completion, Storyteller-log lines above the prompt), line by line when piped.

Piped input is read to its end and the exit status is 0 whatever the commands did: a failed command
is an answer, not a crash.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TextIO

from adapters.console.adapter import (
    CHANNEL,
    ConsoleAdapter,
    console_identity,
    console_message,
    make_lasting_storyteller,
    render,
)
from gateway import Gateway, Settings
from gateway.features import channels

if TYPE_CHECKING:  # prompt_toolkit: imported only for a terminal (piped lines need none of it)
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from adapters.console.prompt import ConsolePrompt


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
    on_terminal = stdin.isatty()
    # No HTTP server here, so no /metrics to count for (and no Prometheus client to import).
    settings = settings.model_copy(update={"metrics": settings.metrics.model_copy(update={"enabled": False})})
    # The console's own adapter is this loop; only an interactive session shows the ST log live.
    # The other adapters are not even imported unless their table is set (they may act here too).
    gateway = Gateway(settings, platforms=("console",) if on_terminal else (), skip_idle_adapters=True)
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
        if on_terminal:
            if storyteller:
                await make_lasting_storyteller(gateway.services, name)
            await interactive(gateway, make_prompt(gateway, name, storyteller), name, storyteller, as_json)
        else:
            for line in stdin:
                await _one(gateway, line.rstrip("\n"), name, storyteller, as_json, stdout)
    finally:
        await gateway.stop()
    return 0


async def _one(gateway: Gateway, line: str, name: str, st: bool, as_json: bool, out: TextIO) -> None:
    for reply in await gateway.services.handle(console_message(line, name=name, storyteller=st)):
        print(render(reply, as_json=as_json), file=out, flush=True)


def make_prompt(
    gateway: Gateway, name: str, st: bool, *, input: Input | None = None, output: Output | None = None
) -> ConsolePrompt:
    """The console's prompt on the terminal, or on ``input``/``output`` when given (tests)."""
    from adapters.console.names import console_prompt

    return console_prompt(
        gateway.services,
        CHANNEL,
        console_identity(name),
        storyteller=st,
        message=f"{name}> ",
        section=gateway.settings.section("console"),
        input=input,
        output=output,
    )


async def interactive(gateway: Gateway, prompt: ConsolePrompt, name: str, st: bool, as_json: bool) -> None:
    """Lines from the prompt until Ctrl-D or Ctrl-C, each answer printed below its line."""
    adapter = gateway.adapters.get("console")
    if isinstance(adapter, ConsoleAdapter):
        adapter.prompt = prompt  # its Storyteller-log lines go above this prompt
    prompt.show("Nightcap gateway console. Type help for commands, Tab to complete, Ctrl-D to leave.")
    try:
        async for line in prompt.lines():
            message = console_message(line, name=name, storyteller=st)
            for reply in await gateway.services.handle(message):
                prompt.show(render(reply, as_json=as_json))
            prompt.names.stale()  # `system`, `char new`: the next Tab reads the names again
    except KeyboardInterrupt:
        pass
    finally:
        if isinstance(adapter, ConsoleAdapter):
            adapter.prompt = None
