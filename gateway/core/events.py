"""Events: what a unit of work did, told to whoever listens once the unit is kept.

A unit records typed events (``unit.record``: ``repo.audit`` records ``SheetChanged`` and
``Approved``, the roll log ``RollLogged``, ``repo.write_stlog`` ``StlogWritten``) and the vault
hands them to this hub in two phases:

- ``subscribe_in_unit(Type, handler)``: ``await handler(unit, event)`` runs *inside* the unit, just
  before its commit, so what it writes (an outbox row) commits or rolls back with the unit's work:
  exactly once, and a crash right after the commit loses nothing. An error there fails the unit.
  Only the process that commits the unit runs these.
- ``subscribe(Type, handler)``: ``await handler(event)`` runs *after* the commit (once the work is
  durable, group commit included), once, in commit order, never for a rolled-back unit; an error is
  logged and the other handlers go on. Events committed by other gateway processes on the same
  PostgreSQL vault arrive here too (``gateway.vault.notify``), at most once: one sent while this
  process was not listening is missed. So this phase is for presentation (a live log), never for
  state.

``on_queued(callback)``: after every commit, ``callback(platforms)`` with the platforms whose outbox
rows the unit queued or made due (``unit.queued``), in this process or another; the outbox wakes
those workers. ``callback(None)`` means "look at every platform" (the carrier reconnected).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import uuid
from collections import deque
from collections.abc import Awaitable, Callable, Iterable
from contextvars import Context
from typing import TYPE_CHECKING, Any, TypeVar

import structlog

if TYPE_CHECKING:
    from gateway.vault.unit import Unit

log = structlog.get_logger(__name__)

E = TypeVar("E")

# Event classes by name, for the JSON form that crosses processes.
EVENT_TYPES: dict[str, type[Any]] = {}


def event_type(cls: type[E]) -> type[E]:
    """Register a frozen dataclass as an event that can cross processes (ids and small values only)."""
    EVENT_TYPES[cls.__name__] = cls
    return cls


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class SheetChanged:
    """Audit rows were written for a character in this unit (one event per character and actor)."""

    character_id: int
    system: str
    owner_id: int | None  # the character's owner (a person id)
    actor_id: int | None  # who made the change (a person id; None when not known)
    actions: tuple[str, ...]  # audit actions, in the order written, each once
    fields: tuple[str, ...]  # the fields they touched, each once

    def merged(self, action: str, field_name: str | None) -> SheetChanged:
        actions = self.actions if action in self.actions else (*self.actions, action)
        fields = (
            self.fields if field_name is None or field_name in self.fields else (*self.fields, field_name)
        )
        return dataclasses.replace(self, actions=actions, fields=fields)


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class RollLogged:
    """A roll was written to the roll log (``public_id`` is the row's unique key)."""

    public_id: str
    channel_key: str
    system: str
    character_id: int | None
    person_id: int | None


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class StlogWritten:
    """A Storyteller-log line of its own was written (an approval, an ST edit, a heal, a house rule:
    every line but a roll's, which ``RollLogged`` tells of). It carries the line itself, so a live
    log shows it without a read."""

    kind: str
    text: str
    character_id: int | None
    channel_key: str
    at: str  # ISO 8601, UTC


@event_type
@dataclasses.dataclass(frozen=True, slots=True)
class Approved:
    """A character's sheet was approved."""

    character_id: int


def encode(event: Any) -> list[Any]:
    """``[type name, fields]``, JSON-ready."""
    return [type(event).__name__, dataclasses.asdict(event)]


def decode(item: Any) -> Any | None:
    """The event from ``encode``'s form; None for a type this process does not know."""
    name, values = item
    cls = EVENT_TYPES.get(name)
    if cls is None:
        return None
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})


AfterCommit = Callable[[Any], Awaitable[None]]
InUnit = Callable[["Unit", Any], Awaitable[None]]
Woken = Callable[[Iterable[str] | None], None]


class Events:
    """The hub: subscriptions, the in-unit phase and the after-commit dispatcher (one task, in order)."""

    def __init__(self) -> None:
        # Tells this process's notifications from the others' on a shared vault.
        self.process = uuid.uuid4().hex
        self._after: dict[type[Any], list[AfterCommit]] = {}
        self._in_unit: dict[type[Any], list[InUnit]] = {}
        self._woken: list[Woken] = []
        self._backlog: deque[Any] = deque()
        self._ready = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None

    def subscribe(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        """After the commit: ``await handler(event)`` (see the module's text)."""
        self._after.setdefault(kind, []).append(handler)

    def subscribe_in_unit(self, kind: type[E], handler: Callable[[Unit, E], Awaitable[None]]) -> None:
        """Inside the unit, before its commit: ``await handler(unit, event)``."""
        self._in_unit.setdefault(kind, []).append(handler)  # type: ignore[arg-type]

    def on_queued(self, callback: Woken) -> Callable[[], None]:
        """After every commit that queued outbox rows; returns the way to stop."""
        self._woken.append(callback)
        return lambda: self._woken.remove(callback)

    async def before_commit(self, unit: Unit) -> None:
        """The in-unit phase. Handlers may record more events; those run too, in order."""
        if not self._in_unit:
            return
        index = 0
        while index < len(unit.events):
            event = unit.events[index]
            for handler in self._in_unit.get(type(event), ()):
                await handler(unit, event)
            index += 1

    def committed(self, events: Iterable[Any], queued: Iterable[str] | None) -> None:
        """A unit (here, or in another process) was kept: wake the outbox, queue the listeners."""
        if queued is None or queued:
            for callback in list(self._woken):
                try:
                    callback(queued)
                except Exception:
                    log.exception("outbox wake failed")
        wanted = [e for e in events if type(e) in self._after]
        if not wanted:
            return
        self._backlog.extend(wanted)
        self._idle.clear()
        self._ready.set()
        if self._task is None:
            # A context of its own: the committer's (a unit's flag, a request's log context) is not its.
            self._task = asyncio.get_running_loop().create_task(
                self._dispatch(), name="events", context=Context()
            )

    async def _dispatch(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            try:
                while self._backlog:
                    event = self._backlog.popleft()
                    for handler in list(self._after.get(type(event), ())):
                        await self._call(handler, event)
            finally:
                if not self._backlog:
                    self._idle.set()

    @staticmethod
    async def _call(handler: AfterCommit, event: Any) -> None:
        try:
            await handler(event)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("event handler failed", kind=type(event).__name__, handler=repr(handler))

    async def drain(self) -> None:
        """Wait until every event committed so far went to its listeners."""
        await self._idle.wait()

    async def close(self, grace: float = 5.0) -> None:
        """Let the listeners finish what was committed (up to ``grace`` seconds), then stop."""
        if self._task is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.drain(), grace)
        task, self._task = self._task, None
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
