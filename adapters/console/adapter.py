"""Console identity, rendering, and delivery of Storyteller-log lines to the terminal."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import signal
import sys
from typing import TYPE_CHECKING, Any, TextIO

from gateway import Adapter, AdapterServices, Channel, Identity, InboundMessage, Outbound, Reply

if TYPE_CHECKING:  # the prompt (prompt_toolkit) is imported only where a terminal is read
    from adapters.console.prompt import ConsolePrompt

CHANNEL = Channel(platform="console", id="main")


def console_identity(name: str) -> Identity:
    return Identity(platform="console", id=name, display_name=name)


def console_message(text: str, *, name: str, storyteller: bool) -> InboundMessage:
    return InboundMessage(
        sender=console_identity(name),
        channel=CHANNEL,
        text=text,
        roles=frozenset({"storyteller"}) if storyteller else frozenset(),
    )


async def make_lasting_storyteller(services: AdapterServices, name: str) -> None:
    """Make ``console:NAME`` a Storyteller in the vault, not only for this session.

    Whoever types at the gateway's own terminal already holds its vault and settings: the terminal
    vouches for them (the ``storyteller`` role on each line), and ``st add`` from there records it,
    so the web's ``/st`` and any platform identity linked to the same person know it too. It runs
    when an interactive prompt opens (``serve`` on a terminal, ``gateway console --st``); a later
    start finds it done (``st add`` then refuses, unseen). No network caller can send a ``console:``
    identity: only this adapter makes them."""
    await services.handle(console_message(f"st add console:{name}", name=name, storyteller=True))


def render(reply: Reply, *, as_json: bool) -> str:
    if as_json:
        return json.dumps(reply.as_json(), ensure_ascii=False)
    return reply.text


class ConsoleAdapter(Adapter):
    platform = "console"

    def __init__(self, services: AdapterServices, section: dict[str, Any], out: TextIO | None = None) -> None:
        self.services = services
        self.section = section
        self.name = str(section.get("name") or getpass.getuser() or "console")
        self.storyteller = bool(section.get("storyteller", True))
        self.out = out or sys.stdout
        self.read_terminal = True
        # The open prompt, if any: Storyteller-log lines are printed above it, not over it.
        self.prompt: ConsolePrompt | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        # Under `serve`, read the terminal only when there is one: a daemon's stdin is /dev/null.
        if self.read_terminal and sys.stdin.isatty():
            from adapters.console.names import console_prompt

            self.prompt = console_prompt(
                self.services,
                CHANNEL,
                console_identity(self.name),
                storyteller=self.storyteller,
                message="gateway> ",
                section=self.section,
            )
            self._task = asyncio.create_task(self._read_terminal(self.prompt))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _read_terminal(self, prompt: ConsolePrompt) -> None:
        try:
            if self.storyteller:
                await make_lasting_storyteller(self.services, self.name)
            async for line in prompt.lines():
                message = console_message(line, name=self.name, storyteller=self.storyteller)
                for reply in await self.services.handle(message):
                    prompt.show(render(reply, as_json=False))
                prompt.names.stale()
        except KeyboardInterrupt:
            # Ctrl-C at the prompt is a key, not a signal (raw mode): send the signal that stops
            # `serve` as it does without a prompt.
            signal.raise_signal(signal.SIGINT)
        finally:
            self.prompt = None

    async def deliver(self, message: Outbound) -> None:
        line = f"[ST log] {message.text}"
        if self.prompt is not None:
            self.prompt.show(line)
        else:
            print(line, file=self.out, flush=True)
