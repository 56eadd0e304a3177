"""Console identity, rendering, and delivery of Storyteller-log lines to the terminal."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import json
import sys
from typing import Any, TextIO

from adapters.console.terminal import read_line
from gateway import Adapter, AdapterServices, Channel, Identity, InboundMessage, Outbound, Reply

CHANNEL = Channel(platform="console", id="main")


def console_message(text: str, *, name: str, storyteller: bool) -> InboundMessage:
    return InboundMessage(
        sender=Identity(platform="console", id=name, display_name=name),
        channel=CHANNEL,
        text=text,
        roles=frozenset({"storyteller"}) if storyteller else frozenset(),
    )


def render(reply: Reply, *, as_json: bool) -> str:
    if as_json:
        return json.dumps(reply.as_json(), ensure_ascii=False)
    return reply.text


class ConsoleAdapter(Adapter):
    platform = "console"

    def __init__(self, services: AdapterServices, section: dict[str, Any], out: TextIO | None = None) -> None:
        self.services = services
        self.name = str(section.get("name") or getpass.getuser() or "console")
        self.storyteller = bool(section.get("storyteller", True))
        self.out = out or sys.stdout
        self.read_terminal = True
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        # Under `serve`, read the terminal only when there is one: a daemon's stdin is /dev/null.
        if self.read_terminal and sys.stdin.isatty():
            self._task = asyncio.create_task(self._read_terminal())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _read_terminal(self) -> None:
        while True:
            try:
                line = await read_line("gateway> ")
            except EOFError:
                return
            message = console_message(line, name=self.name, storyteller=self.storyteller)
            for reply in await self.services.handle(message):
                print(render(reply, as_json=False), file=self.out, flush=True)

    async def deliver(self, message: Outbound) -> None:
        print(f"[ST log] {message.text}", file=self.out, flush=True)
