"""A wire-level fake IRC server: the test scripts every line it sends and checks every line it gets.

Used for what the real servers in the suite cannot show: IRCv3 account-tag, extended-join,
account-notify, WHOX accounts and SASL PLAIN. The lines it sends are written the way the IRCv3
specifications show them (for example ``@account=hax0r :user PRIVMSG #atheme :Now I'm logged in.``).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Callable

SERVER = "fake.test"
BOT_MASK = "bot@fake.host"


class FakeConn:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.received: list[str] = []
        self.cursor = 0
        self._new = asyncio.Event()
        self.closed = asyncio.Event()
        self._task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            while raw := await self.reader.readline():
                line = raw.decode().rstrip("\r\n")
                self.received.append(line)
                self._new.set()
                if line.startswith("QUIT"):
                    self.writer.close()  # as a real server does
                    return
        finally:
            self.closed.set()
            self._new.set()

    async def send(self, *lines: str) -> None:
        for line in lines:
            self.writer.write(line.encode() + b"\r\n")
        await self.writer.drain()

    async def expect(self, match: str | Callable[[str], bool], timeout: float = 10.0) -> str:
        """The next line (after the cursor) that equals / starts with ``match``; skips nothing else."""
        predicate = match if callable(match) else (lambda s: s == match or s.startswith(match + " "))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for i in range(self.cursor, len(self.received)):
                if predicate(self.received[i]):
                    self.cursor = i + 1
                    return self.received[i]
            if self.closed.is_set() or loop.time() > deadline:
                raise AssertionError(f"expected {match!r}; got {self.received[self.cursor :]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), max(0.0, deadline - loop.time()))

    async def next_line(self, timeout: float = 10.0) -> str:
        return await self.expect(lambda s: True, timeout)

    def unread(self) -> list[str]:
        return self.received[self.cursor :]

    async def close(self) -> None:
        self.writer.close()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

    # ------------------------------------------------------------------ scripted dialogues

    async def register(
        self,
        caps: str,
        *,
        nick: str = "nightcap",
        sasl: tuple[str, str] | None = None,
        sasl_ok: bool = True,
        whox: bool = True,
    ) -> list[str]:
        """Answer the bot's registration; returns the lines the bot sent, in order."""
        start = self.cursor
        await self.expect("CAP LS 302")
        await self.expect(f"NICK {nick}")
        await self.expect("USER")
        await self.send(f":{SERVER} CAP * LS :{caps}")
        req = await self.expect(lambda s: s.startswith(("CAP REQ", "CAP END")))
        requested = req.split(":", 1)[1].split() if req.startswith("CAP REQ") else []
        if requested:
            await self.send(f":{SERVER} CAP * ACK :{' '.join(requested)}")
        else:
            self.cursor -= 1  # that was CAP END
        if "sasl" in requested:
            await self.expect("AUTHENTICATE PLAIN")
            await self.send("AUTHENTICATE +")
            blob = await self.expect("AUTHENTICATE")
            assert sasl is not None
            user, password = sasl
            wanted = base64.b64encode(f"{user}\0{user}\0{password}".encode()).decode()
            if len(wanted) < 400:
                assert blob == f"AUTHENTICATE {wanted}", blob
            if sasl_ok:
                await self.send(
                    f":{SERVER} 900 {nick} {nick}!{BOT_MASK} {user} :You are now logged in as {user}",
                    f":{SERVER} 903 {nick} :SASL authentication successful",
                )
            else:
                await self.send(f":{SERVER} 904 {nick} :SASL authentication failed")
        await self.expect("CAP END")
        isupport = "CASEMAPPING=rfc1459 CHANTYPES=# NICKLEN=30" + (" WHOX" if whox else "")
        await self.send(
            f":{SERVER} 001 {nick} :Welcome to the Fake IRC Network {nick}!{BOT_MASK}",
            f":{SERVER} 005 {nick} {isupport} :are supported by this server",
            f":{SERVER} 376 {nick} :End of /MOTD command.",
        )
        return self.received[start : self.cursor]

    async def accept_join(
        self,
        channel: str,
        *,
        nick: str = "nightcap",
        names: str = "",
        whox: list[tuple[str, str]] | None = None,
        extended: bool = False,
    ) -> None:
        """Answer the bot's JOIN: the echo, NAMES, and (with WHOX) one 354 line per (nick, account)."""
        await self.expect(f"JOIN {channel}")
        join = f":{nick}!{BOT_MASK} JOIN {channel}" + (f" {nick} :Nightcap gateway" if extended else "")
        await self.send(
            join,
            f":{SERVER} 353 {nick} = {channel} :{nick} {names}".rstrip(),
            f":{SERVER} 366 {nick} {channel} :End of /NAMES list.",
        )
        if whox is not None:
            await self.expect(f"WHO {channel} %tcuhnfa,616")
            lines = [
                f":{SERVER} 354 {nick} 616 {channel} {who} {who}.host {who} H {account}"
                for who, account in whox
            ]
            await self.send(*lines, f":{SERVER} 315 {nick} {channel} :End of /WHO list.")


class FakeServer:
    def __init__(self) -> None:
        self.port = 0
        self._server: asyncio.Server | None = None
        self._conns: asyncio.Queue[FakeConn] = asyncio.Queue()
        self.all: list[FakeConn] = []

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = FakeConn(reader, writer)
        self.all.append(conn)
        await self._conns.put(conn)

    async def accept(self, timeout: float = 10.0) -> FakeConn:
        return await asyncio.wait_for(self._conns.get(), timeout)

    async def stop(self) -> None:
        for conn in self.all:
            await conn.close()
        if self._server is not None:
            self._server.close()
