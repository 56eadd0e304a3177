"""The gateway's HTTP server (``gateway serve``): aiohttp's runner with connection hygiene.

A process can hold only so many sockets (``RLIMIT_NOFILE``; systemd's default soft limit is 1,024).
Past it every ``accept`` fails, nobody is served, and asyncio logs the failure with a traceback many
times a second. So, at start:

- the soft open-file limit is raised to the hard one (reported in the log);
- open connections are capped at ``[http] max_connections``, and always at least ``FD_RESERVE`` below
  the open-file limit (the vault, the adapters' own connections and the log need descriptors too).
  At the cap, a new connection makes room by closing the oldest one that has no request in progress
  (a silent or idle socket); with none, the new one is closed;
- a connection that has not sent a whole request head within ``[http] idle_timeout`` seconds of
  opening, or of its last answer, is closed (aiohttp's keep-alive timer covers both);
- an ``accept`` that fails anyway (another process ate the descriptors) is logged once per
  ``ACCEPT_LOG_EVERY`` seconds with a count, never with a traceback per attempt.
"""

from __future__ import annotations

import asyncio
import resource
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import structlog
from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from gateway.core.settings import HttpSection

log = structlog.get_logger(__name__)

FD_RESERVE = 64  # descriptors kept free of client connections, at the least
ACCEPT_LOG_EVERY = 10.0  # seconds between two log lines about failing accepts
ACCEPT_MESSAGE = "socket.accept() out of system resource"  # asyncio's, for EMFILE/ENFILE/ENOBUFS/ENOMEM
SHUTDOWN_TIMEOUT = 60.0  # as aiohttp's run_app: requests in flight get this long at a stop


@dataclass(frozen=True)
class FileLimit:
    soft: int
    hard: int
    raised_from: int | None  # the soft limit before it was raised, None when it was not


def raise_file_limit() -> FileLimit:
    """Raise the soft ``RLIMIT_NOFILE`` to the hard limit (a process may, unprivileged)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft == hard:
        return FileLimit(soft, hard, None)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ValueError, OSError):  # a sandbox that refuses: keep what there is
        return FileLimit(soft, hard, None)
    return FileLimit(hard, hard, soft)


def connection_cap(wanted: int, soft_limit: int) -> int:
    """``wanted``, but at least ``FD_RESERVE`` (and an eighth of the limit) below the open-file limit;
    never below 8, so a tiny limit still serves someone."""
    if soft_limit == resource.RLIM_INFINITY or soft_limit < 0:
        return wanted
    reserve = max(FD_RESERVE, soft_limit // 8)
    return max(8, min(wanted, soft_limit - reserve))


class ConnectionCap:
    """At most ``cap`` open connections on an aiohttp server: at the cap, a new connection closes the
    oldest one with no request in progress (the server keeps its connections in the order they
    opened), or itself when every open one is busy."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.evicted = 0  # idle connections closed to make room, since start
        self.refused = 0  # new connections closed because every open one was busy

    def attach(self, server: web.Server) -> None:
        """Watch ``server``'s new connections (its ``connection_made``, which every one calls)."""
        made = server.connection_made

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self.admit(server.connections, handler)

        server.connection_made = connection_made  # type: ignore[method-assign]

    def admit(self, open_now: list[RequestHandler], handler: RequestHandler) -> None:
        if len(open_now) <= self.cap:
            return
        for other in open_now:
            if other is handler:
                break
            # aiohttp keeps no public flag for it; a request being handled must not be cut off.
            if not getattr(other, "_request_in_progress", False) and not getattr(
                other, "_force_close", False
            ):
                other.force_close()
                self.evicted += 1
                return
        handler.force_close()
        self.refused += 1


class AcceptErrors:
    """The loop's exception handler, with asyncio's failing-``accept`` reports counted and logged
    once per ``every`` seconds (no traceback): 1,100 idle sockets once made 296 MB of log a minute."""

    def __init__(self, every: float = ACCEPT_LOG_EVERY, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self.clock = clock
        self.count = 0  # since the last line
        self.total = 0
        self.lines = 0
        self._last: float | None = None
        self._previous: Any = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self.handle)

    def handle(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != ACCEPT_MESSAGE:
            if self._previous is not None:
                self._previous(loop, context)
            else:
                loop.default_exception_handler(context)
            return
        self.count += 1
        self.total += 1
        now = self.clock()
        if self._last is None or now - self._last >= self.every:
            exc = context.get("exception")
            log.error(
                "http accept failing",
                error=f"{type(exc).__name__}: {exc}" if exc is not None else None,
                count=self.count,
                seconds=self.every if self._last is not None else 0,
                hint="open connections or other descriptors are at the open-file limit (ulimit -n)",
            )
            self._last = now
            self.count = 0
            self.lines += 1


def serve(app: web.Application, http: HttpSection) -> None:
    """Run the gateway's server until SIGINT or SIGTERM, then stop it gracefully."""
    asyncio.run(_serve(app, http))


async def _serve(app: web.Application, http: HttpSection) -> None:
    loop = asyncio.get_running_loop()
    limit = raise_file_limit()
    cap = connection_cap(http.max_connections, limit.soft)
    AcceptErrors().install(loop)
    log.info(
        "http server",
        host=http.host,
        port=http.port,
        open_files=limit.soft,
        open_files_hard=limit.hard,
        open_files_raised_from=limit.raised_from,
        max_connections=cap,
        idle_timeout=http.idle_timeout,
    )
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner = web.AppRunner(
        app, keepalive_timeout=http.idle_timeout, handle_signals=False, shutdown_timeout=SHUTDOWN_TIMEOUT
    )
    await runner.setup()
    try:
        assert runner.server is not None
        ConnectionCap(cap).attach(runner.server)
        await web.TCPSite(runner, http.host, http.port).start()
        await stop.wait()
    finally:
        await runner.cleanup()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
