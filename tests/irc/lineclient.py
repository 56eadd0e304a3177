"""A small IRC client for the tests: its own connection, its own parser (not the adapter's)."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Line:
    raw: bytes  # as received, CR-LF included
    at: float  # loop time of arrival
    prefix: str
    command: str
    params: list[str]
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def nick(self) -> str:
        return self.prefix.split("!", 1)[0]

    @property
    def text(self) -> str:
        return self.params[-1] if self.params else ""


def parse(raw: bytes, at: float) -> Line:
    text = raw.decode("utf-8", errors="strict").rstrip("\r\n")
    tags: dict[str, str] = {}
    if text.startswith("@"):
        tag_part, text = text[1:].split(" ", 1)
        for item in tag_part.split(";"):
            k, _, v = item.partition("=")
            tags[k] = v
    prefix = ""
    if text.startswith(":"):
        prefix, text = text[1:].split(" ", 1)
    trailing = None
    if " :" in text:
        text, trailing = text.split(" :", 1)
    parts = text.split()
    if trailing is not None:
        parts.append(trailing)
    return Line(raw=raw, at=at, prefix=prefix, command=parts[0].upper(), params=parts[1:], tags=tags)


class LineClient:
    def __init__(self, port: int, nick: str, host: str = "127.0.0.1") -> None:
        self.host, self.port, self.nick = host, port, nick
        self.lines: list[Line] = []
        self.cursor = 0
        self._new = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def connect(self) -> None:
        reader, self.writer = await asyncio.open_connection(self.host, self.port)
        self._task = asyncio.create_task(self._read(reader))
        await self.send(f"NICK {self.nick}")
        await self.send(f"USER {self.nick} 0 * :test client {self.nick}")
        await self.wait_for(lambda ln: ln.command in ("376", "422"), timeout=15)

    async def _read(self, reader: asyncio.StreamReader) -> None:
        loop = asyncio.get_running_loop()
        while True:
            raw = await reader.readline()
            if not raw:
                self._new.set()
                return
            line = parse(raw, loop.time())
            if line.command == "PING":
                await self.send(f"PONG :{line.text}")
            self.lines.append(line)
            self._new.set()

    async def send(self, line: str) -> None:
        assert self.writer is not None
        self.writer.write(line.encode() + b"\r\n")
        await self.writer.drain()

    async def join(self, channel: str) -> None:
        await self.send(f"JOIN {channel}")
        await self.wait_for(lambda ln: ln.command == "366" and ln.params[1].lower() == channel.lower())

    async def say(self, target: str, text: str) -> None:
        await self.send(f"PRIVMSG {target} :{text}")

    async def wait_for(self, predicate: Callable[[Line], bool], timeout: float = 10.0) -> Line:
        """The first line after the cursor that matches; the cursor moves past it."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for i in range(self.cursor, len(self.lines)):
                if predicate(self.lines[i]):
                    self.cursor = i + 1
                    return self.lines[i]
            remaining = deadline - loop.time()
            if remaining <= 0:
                seen = [ln.raw for ln in self.lines[self.cursor :]][-20:]
                raise TimeoutError(f"{self.nick}: no matching line; unread lines: {seen}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), remaining)

    async def messages_from(self, nick: str, count: int, timeout: float = 15.0) -> list[Line]:
        out = []
        for _ in range(count):
            out.append(
                await self.wait_for(
                    lambda ln: ln.command in ("PRIVMSG", "NOTICE") and ln.nick == nick, timeout=timeout
                )
            )
        return out

    def unread(self, predicate: Callable[[Line], bool]) -> list[Line]:
        return [ln for ln in self.lines[self.cursor :] if predicate(ln)]

    async def close(self) -> None:
        if self.writer is not None:
            with contextlib.suppress(Exception):
                await self.send("QUIT :bye")
                self.writer.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


ROLL_LINE = re.compile(r"#([a-z0-9]+)$")
