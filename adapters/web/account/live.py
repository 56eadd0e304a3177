"""The Storyteller log, live: each roll and each other line (approvals, ST edits, house rules)
committed by any gateway process on the vault reaches every open log page as a server-sent event.

How a commit is heard depends on the vault. PostgreSQL and one process's in-memory world: the hub's
after-commit events (``RollLogged``, ``StlogWritten``; another process's arrive through
``gateway.vault.notify``); a reader task reads the rolls waiting together, once, and puts each on
the queue of every viewer whose view (``log_view.LogView``) admits it. A SQLite file, where
another process (a console beside ``serve``) sends no notification: the outbox worker's change
signal, ``PRAGMA data_version`` on a read-only connection (``gateway.delivery.outbox.VaultWrites``: no lock,
no transaction), looked at every ``[outbox] poll_interval`` while someone watches; only when it
moved are the rows past the last one sent read, and this process's own events wake it at once. A
viewer that falls behind (a full queue) loses its oldest lines, never the gateway's memory. The
notices' stream (``notice_stream``) rides on the same viewers and watcher.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from aiohttp import web

from adapters.web import times
from adapters.web.account.log_view import LogView, channel_label
from adapters.web.account.roll_view import sides
from adapters.web.people import platform_label
from gateway import AdapterServices
from gateway.core.events import RollLogged, StlogWritten
from gateway.delivery.queue import VaultWrites
from gateway.features import records
from gateway.features.records import RollLog

QUEUE = 500
GATHER = 0.05  # seconds a viewer gathers lines into one write once one has arrived
HEARTBEAT = 15.0  # seconds between a stream's keep-alives, each asking whether it may go on
READ_MAX = 500  # rows read per look: a burst bigger than a queue is not worth reading whole
WATCHER = "web-live"


@dataclass(eq=False)
class Viewer:
    view: LogView | None  # None: a page's notices only (NoticeFeed), no log rows
    locale: str
    person_id: int | None = None
    storyteller: bool = False
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(QUEUE))

    def put(self, item: bytes) -> None:
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(item)


@dataclass(frozen=True)
class Row:
    """A line to send: what the views filter on, and its fields that do not depend on the viewer."""

    moment: datetime
    channel_key: str
    character_id: int | None
    fields: dict[str, Any]

    @property
    def is_roll(self) -> bool:
        return self.fields.get("id") is not None

    def shown(self, view: LogView, locale: str) -> bytes:
        """The event as a viewer in this zone and language gets it, with the groups it goes under."""
        hour, heading = view.hour(self.moment)
        platform = self.channel_key.partition(":")[0]
        item = {
            **self.fields,
            "at": times.machine(self.moment, view.zone),
            "shown": times.shown(self.moment, view.zone, seconds=True),
            "platform": platform,
            "platform_label": platform_label(platform, locale),
            "channel": self.channel_key,
            "channel_label": channel_label(self.channel_key, locale),
            "hour": hour,
            "hour_heading": heading,
        }
        return b"data: " + orjson.dumps(item) + b"\n\n"


class LiveLog:
    def __init__(self, services: AdapterServices) -> None:
        self.services = services
        self.viewers: set[Viewer] = set()
        self._writes: VaultWrites | None = None
        self._opened = False
        self._wake = asyncio.Event()
        self._watcher: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self._marks = (0, 0)  # the last roll-log and stlog row ids sent (SQLite)
        self._pending: list[str | Row] = []  # PostgreSQL and in-memory: what the reader sends next
        self._reader: asyncio.Task[None] | None = None
        # Called when the SQLite watcher read lines that are not rolls (approvals, submissions, edits).
        self.on_lines: list[Callable[[], Awaitable[None]]] = []
        services.events.subscribe(RollLogged, self.rolled)
        services.events.subscribe(StlogWritten, self.written)

    async def watch(self, viewer: Viewer) -> Viewer:
        """A new viewer; on SQLite, once the watcher knows where the log stands (the first viewer
        starts it), so every line committed from now on reaches the viewer."""
        async with self._starting:  # two first viewers at once start one watcher
            if self._sqlite() and self._watcher is None:
                assert self._writes is not None
                self._writes.mark(WATCHER)
                self._marks = await self._newest()
                self._watcher = asyncio.create_task(self._watch(), name="web:live-log")
        self.viewers.add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)
        if not self.viewers:
            self._wake.set()  # the watcher sees nobody is left and ends

    async def close(self) -> None:
        for task in (self._watcher, self._reader):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        if self._writes is not None:
            self._writes.close()

    def sqlite(self) -> bool:
        """Whether commits are heard through the SQLite watcher (not through the hub's events)."""
        return self._sqlite()

    def _sqlite(self) -> bool:
        if not self._opened:
            self._opened = True
            self._writes = VaultWrites.open(self.services.vault)
        return self._writes is not None

    # PostgreSQL and in-memory vaults: the events.

    async def rolled(self, event: RollLogged) -> None:
        if self._writes is not None:
            self._wake.set()  # the watcher reads it with whatever else was committed
            return
        wanted = {v.view.character_id for v in self.viewers if v.view is not None}
        if not wanted or (None not in wanted and event.character_id not in wanted):  # nobody: no read
            return
        self._queue(event.public_id)

    async def written(self, event: StlogWritten) -> None:
        """A line that is not a roll's: the event carries it, so nothing is read."""
        if self._writes is not None:
            self._wake.set()
            return
        if any(v.view is not None for v in self.viewers):
            moment = datetime.fromisoformat(event.at)
            self._queue(self.line_row(event.kind, event.text, event.channel_key, event.character_id, moment))

    def _queue(self, item: str | Row) -> None:
        """Rolls to read (their public ids) and lines to send, in commit order, to the reader. The
        reader reads the rolls waiting together in one query, so at 100 rolls a second it does not
        fall behind one round trip a roll (PostgreSQL ids commit out of order, so it reads these
        ids, never the rows past a mark)."""
        self._pending.append(item)
        if self._reader is None or self._reader.done():
            self._reader = asyncio.create_task(self._read_pending(), name="web:live-log-reader")

    async def _read_pending(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:READ_MAX], self._pending[READ_MAX:]
            ids = [item for item in batch if isinstance(item, str)]
            rolls = await records.logged_rolls(self.services.vault, ids) if ids else {}
            for item in batch:
                if isinstance(item, Row):
                    self._send(item)
                elif (found := rolls.get(item)) is not None:
                    self._send(self.roll_row(*found))

    # A SQLite file: the change signal, then the rows past the marks.

    async def _watch(self) -> None:
        writes = self._writes
        assert writes is not None
        try:
            poll = self.services.settings.outbox.poll_interval
            while self.viewers:
                woken = False
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), poll)
                    woken = True
                self._wake.clear()
                if not self.viewers or not (woken or writes.changed(WATCHER)):
                    continue
                writes.mark(WATCHER)  # before the read: a commit during it is seen next time
                await self._read_new()
        finally:
            self._watcher = None

    async def _newest(self) -> tuple[int, int]:
        return await records.stlog_marks(self.services.vault)

    async def _read_new(self) -> None:
        last_roll, last_entry = self._marks
        rolls, entries = await records.stlog_after(self.services.vault, last_roll, last_entry, READ_MAX)
        found: list[tuple[datetime, int, Row]] = []
        for roll, name in rolls:
            last_roll = max(last_roll, roll.id or 0)
            found.append((roll.created_at, 0, self.roll_row(roll, name)))
        for row in entries:
            last_entry = max(last_entry, row.id or 0)
            line = self.line_row(row.kind, row.text, row.channel_key, row.character_id, row.created_at)
            found.append((row.created_at, 1, line))
        self._marks = (last_roll, last_entry)
        for _, _, shown in sorted(found, key=lambda item: item[:2]):
            self._send(shown)
        if entries:
            for call in self.on_lines:
                await call()

    # What a line shows: plain values, drawn by the page as text nodes.

    def roll_row(self, roll: RollLog, character: str | None) -> Row:
        fields = {
            "id": roll.public_id,
            "kind": roll.stlog_kind or roll.kind,
            "text": roll.text or f"{roll.display_name}: {roll.kind} {roll.total}",
            "who": roll.display_name,
            "character": character,
            "character_id": roll.character_id,
            "sides": sides(roll.result, self.services.systems().get(roll.system)),
        }
        return Row(roll.created_at, roll.channel_key, roll.character_id, fields)

    def line_row(
        self, kind: str, text: str, channel_key: str, character_id: int | None, moment: datetime
    ) -> Row:
        """A line of its own (no roll, so no id and no verify link)."""
        fields: dict[str, Any] = {
            "id": None,
            "kind": kind,
            "text": text,
            "character_id": character_id,
            "sides": [],
        }
        return Row(moment, channel_key, character_id, fields)

    def _send(self, row: Row) -> None:
        """The row to each viewer whose view admits it, encoded once per zone and language."""
        encoded: dict[tuple[str, str], bytes] = {}
        for viewer in list(self.viewers):
            view = viewer.view
            if view is not None and view.admits(
                is_roll=row.is_roll, channel_key=row.channel_key, character_id=row.character_id
            ):
                key = (view.zone, viewer.locale)
                if key not in encoded:
                    encoded[key] = row.shown(view, viewer.locale)
                viewer.put(encoded[key])


async def serve(
    request: web.Request, live: LiveLog, viewer: Viewer, still: Callable[[], Awaitable[bool]]
) -> web.StreamResponse:
    """The viewer's queue as server-sent events, until the browser goes or ``still()`` (asked at
    each keep-alive) is false."""
    await live.watch(viewer)
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
    try:
        await response.prepare(request)
        await response.write(b": live\n\n")
        while True:
            try:
                item = await asyncio.wait_for(viewer.queue.get(), HEARTBEAT)
            except TimeoutError:
                if not await still():
                    break
                await response.write(b": ping\n\n")
                continue
            # A short window gathers what follows into one write: at 100 rolls a second a viewer
            # wakes 20 times, not 100 (it waits on its queue first, so an idle log costs nothing).
            await asyncio.sleep(GATHER)
            waiting = [item]
            while not viewer.queue.empty():
                waiting.append(viewer.queue.get_nowait())
            await response.write(b"".join(waiting))
    except ConnectionResetError:
        return response  # the browser went away
    finally:
        live.leave(viewer)  # also when the server stops (the handler is cancelled)
    with contextlib.suppress(ConnectionResetError):
        await response.write_eof()  # the session ended or the role was taken away
    return response
