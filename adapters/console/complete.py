"""Tab completion at the console's prompt: command names, the sender's macros (``!hit``), trait names
and character names.

The names come from the running gateway (the plugin registry, the vault) and are cached, so a Tab
never waits on the vault when the cache is fresh. The cache is marked stale when a sheet changes or
is approved (the event hub, from any process on a PostgreSQL vault), after every command the console
runs (``system`` changes the channel's rule system), and after ``TTL`` seconds (changes no event
tells of); a stale cache is read again asynchronously, on the event loop, at the next Tab.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field

import structlog
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

log = structlog.get_logger(__name__)

TTL = 30.0  # seconds a cache is trusted when no event says otherwise


@dataclass(frozen=True)
class Names:
    """What a Tab can offer: command names (``char new`` is two words), traits, characters, and the
    macros the sender sees here, each as it is typed to run it (``!hit``: with the prefix)."""

    commands: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    characters: tuple[str, ...] = ()
    macros: tuple[str, ...] = ()


Loader = Callable[[], Awaitable[Names]]


@dataclass
class NameSource:
    """Cached ``Names`` from ``load``, read again once stale (``stale()``, or ``ttl`` passed)."""

    load: Loader
    ttl: float = TTL
    clock: Callable[[], float] = time.monotonic
    current: Names = field(default_factory=Names)
    _read_at: float | None = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def stale(self) -> None:
        self._read_at = None

    async def on_event(self, _event: object) -> None:
        """An event-hub handler: the next Tab reads the names again."""
        self.stale()

    @property
    def loaded(self) -> bool:
        return self._read_at is not None

    async def fresh(self) -> Names:
        async with self._lock:  # one read at a time: a second Tab waits for the first one's names
            if self._read_at is None or self.clock() - self._read_at > self.ttl:
                try:
                    self.current = await self.load()
                except Exception:  # a vault that does not answer: offer what we had, try at the next Tab
                    log.warning("console completion names not read", exc_info=True)
                    return self.current
                self._read_at = self.clock()
            return self.current


def _matches(word: str, candidates: Iterable[str]) -> list[str]:
    folded = word.casefold()
    return sorted({c for c in candidates if c.casefold().startswith(folded) and c.casefold() != folded})


def completions(text: str, names: Names) -> list[tuple[str, int]]:
    """``(completion, start position)`` pairs for the text before the cursor: the next word of a
    command name while the words typed so far begin one (``char u`` -> ``use``), then trait names
    and character names for the word under the cursor (a character name may hold spaces:
    ``st approve Mira V`` -> ``Mira Vance``). A line's first word may be a macro (``!h`` -> ``!hit``)."""
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    current = "" if not spans or spans[-1][1] != len(text) else text[spans[-1][0] :]
    before = [text[a:b].casefold() for a, b in (spans[:-1] if current else spans)]
    next_words = {
        parts[len(before)]
        for parts in (name.split() for name in names.commands)
        if len(parts) > len(before) and parts[: len(before)] == before
    }
    if not before:
        next_words |= set(names.macros)
    found = [(w, -len(current)) for w in _matches(current, next_words)]
    if before and not found:  # a command's next word first: `char ` offers `new`, `use`
        found += [(t, -len(current)) for t in _matches(current, names.traits)]
        # The name may begin up to three words back, never on the command's first word.
        typed_from = [a for a, _ in spans[1:][-3:]] if current else [len(text)]
        for a in typed_from:
            typed = text[a:]
            found += [(c, -len(typed)) for c in _matches(typed, names.characters)]
    unique: dict[str, int] = {}
    for completion, position in found:
        unique.setdefault(completion, position)
    return list(unique.items())


class ConsoleCompleter(Completer):
    """prompt_toolkit's side: names from the cache (read again first, asynchronously, when stale)."""

    def __init__(self, source: NameSource) -> None:
        self.source = source

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterator[Completion]:
        for text, start in completions(document.text_before_cursor, self.source.current):
            yield Completion(text, start_position=start)

    async def get_completions_async(
        self, document: Document, complete_event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        names = await self.source.fresh()
        for text, start in completions(document.text_before_cursor, names):
            yield Completion(text, start_position=start)
