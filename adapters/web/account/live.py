"""The Storyteller log, live: each roll and each other line (``StlogWritten``: approvals, ST edits,
house rules) committed (in this process, or in another on a PostgreSQL
vault through ``gateway.vault.notify``) reaches every open log page as a server-sent event.

Event-driven end to end: the hub's after-commit ``RollLogged`` listener reads the roll's row once and
puts it on each viewer's queue; a viewer's stream waits on its queue. Nothing polls. A viewer that
falls behind (a full queue) loses its oldest lines, never the gateway's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson

from adapters.web import times
from gateway import AdapterServices, records
from gateway.events import RollLogged, StlogWritten
from gateway.records import RollLog

QUEUE = 500


@dataclass(eq=False)
class Viewer:
    character_id: int | None
    queue: asyncio.Queue[bytes] = field(default_factory=lambda: asyncio.Queue(QUEUE))

    def put(self, item: bytes) -> None:
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
        self.queue.put_nowait(item)


def entry(roll: RollLog, character: str | None, zone: str) -> dict[str, Any]:
    """What a log line shows: plain values, drawn by the page as text nodes."""
    return {
        "id": roll.public_id,
        "text": roll.text or f"{roll.display_name}: {roll.kind} {roll.total}",
        "character": character,
        "character_id": roll.character_id,
        "at": times.machine(roll.created_at, zone),
        "shown": times.shown(roll.created_at, zone, seconds=True),
        "platform": roll.identity_key.partition(":")[0],
    }


def line_entry(event: StlogWritten, zone: str) -> dict[str, Any]:
    """A line of its own (no roll, so no id and no verify link)."""
    moment = datetime.fromisoformat(event.at)
    return {
        "id": None,
        "kind": event.kind,
        "text": event.text,
        "character_id": event.character_id,
        "at": times.machine(moment, zone),
        "shown": times.shown(moment, zone, seconds=True),
        "platform": event.channel_key.partition(":")[0],
    }


class LiveLog:
    def __init__(self, services: AdapterServices) -> None:
        self.services = services
        self.viewers: set[Viewer] = set()
        services.events.subscribe(RollLogged, self.rolled)
        services.events.subscribe(StlogWritten, self.written)

    def watch(self, character_id: int | None) -> Viewer:
        viewer = Viewer(character_id)
        self.viewers.add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)

    async def rolled(self, event: RollLogged) -> None:
        if not self.viewers:
            return  # nobody watching: not even the read
        wanted = {v.character_id for v in self.viewers}
        if None not in wanted and event.character_id not in wanted:
            return
        found = await records.logged_roll(self.services.vault, event.public_id)
        if found is None:
            return
        roll, name = found
        self._send(entry(roll, name, self.services.settings.gateway.timezone), roll.character_id)

    async def written(self, event: StlogWritten) -> None:
        """A line that is not a roll's: the event carries it, so nothing is read."""
        if self.viewers:
            self._send(line_entry(event, self.services.settings.gateway.timezone), event.character_id)

    def _send(self, shown: dict[str, Any], character_id: int | None) -> None:
        item = b"data: " + orjson.dumps(shown) + b"\n\n"  # encoded once for every viewer
        for viewer in list(self.viewers):
            if viewer.character_id is None or viewer.character_id == character_id:
                viewer.put(item)
