"""Tab completion at the console's prompt: command names, the sender's macros (``!hit``), then what
the command's typed parameters (``gateway.core.params``) take where the cursor is: a choice's words, its
keywords and flags (``vs``, ``secret``), the traits, powers, characters and house rules of the
channel's system, and the people the gateway has seen. A command that declares none is offered trait
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
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import structlog
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from gateway.core.params import NAME_KINDS, Param
from gateway.features.notation.examples import suggestions

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
    # Each command's (and alias's) typed parameters, by its name.
    params: Mapping[str, tuple[Param, ...]] = field(default_factory=dict)
    powers: tuple[str, ...] = ()  # the active character's
    own_characters: tuple[str, ...] = ()  # the sender's
    house_rules: tuple[str, ...] = ()  # the system's switches
    people: tuple[str, ...] = ()  # people seen, by name where the name is theirs alone, else PLATFORM:ID


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
    command name while the words typed so far begin one (``char u`` -> ``use``), then what the
    command's parameter at the cursor takes (``roll ph`` -> ``physical``, ``lang c`` -> ``channel``,
    ``cs``); a name may hold spaces (``st approve Mira V`` -> ``Mira Vance``). A line's first word
    may be a macro (``!h`` -> ``!hit``)."""
    spans = [m.span() for m in re.finditer(r"\S+", text)]
    current = "" if not spans or spans[-1][1] != len(text) else text[spans[-1][0] :]
    done = spans[:-1] if current else spans
    before = [text[a:b].casefold() for a, b in done]
    next_words = {
        parts[len(before)]
        for parts in (name.split() for name in names.commands)
        if len(parts) > len(before) and parts[: len(before)] == before
    }
    if not before:
        next_words |= set(names.macros)
    found = [(w, -len(current)) for w in _matches(current, next_words)]
    if before and not found:  # a command's next word first: `char ` offers `new`, `use`
        command = _command(before, names)
        if command is not None and names.params.get(command[0]):
            found += _for_params(text, done[command[1] :], current, names.params[command[0]], names)
        else:
            found += [(t, -len(current)) for t in _matches(current, names.traits)]
            found += _names(text, spans[1:], current, names.characters)
    unique: dict[str, int] = {}
    for completion, position in found:
        unique.setdefault(completion, position)
    return list(unique.items())


def _command(before: Sequence[str], names: Names) -> tuple[str, int] | None:
    """The longest command name the words before the cursor begin with, and its word count."""
    for count in range(len(before), 0, -1):
        name = " ".join(before[:count])
        if name in names.params or name in names.commands:
            return name, count
    return None


def _names(
    text: str, spans: Sequence[tuple[int, int]], current: str, candidates: Iterable[str]
) -> list[tuple[str, int]]:
    """Names that may hold spaces: one may begin up to three words back (within ``spans``)."""
    typed_from = [a for a, _ in spans[-3:]] if current else [len(text)]
    found: list[tuple[str, int]] = []
    for a in typed_from:
        typed = text[a:]
        found += [(c, -len(typed)) for c in _matches(typed, candidates)]
    return found


def _for_params(
    text: str, args: Sequence[tuple[int, int]], current: str, params: Sequence[Param], names: Names
) -> list[tuple[str, int]]:
    """What the parameter at the cursor takes, and the keywords and flags not used yet. ``args``:
    the spans of the words typed after the command's name, before the word under the cursor."""
    positional = [p for p in params if not p.keyword]
    keywords = {str(p.keyword).casefold(): p for p in params if p.keyword}
    used: set[str] = set()
    param: Param | None = None  # the parameter the last word went to
    start = 0  # where its words begin, in ``args``
    filled = False  # a keyword's one word is given
    count = 0  # positional parameters begun
    for index, (a, b) in enumerate(args):
        keyed = keywords.get(text[a:b].casefold())
        if keyed is not None and keyed.name not in used:
            used.add(keyed.name)
            param, start, filled = (None if keyed.kind == "flag" else keyed), index + 1, False
        elif param is not None and param.keyword and not param.rest and not filled:
            filled = True
        elif param is not None and param.kind in NAME_KINDS and not param.keyword:
            following = positional[count] if count < len(positional) else None
            if following is None or not _takes(following, text[a:b]):
                continue  # the name goes on: ``Shadow Step``
            param = following
            count, start, filled = count + 1, index, False
        elif param is None or not param.rest:
            param = positional[count] if count < len(positional) else None
            count, start, filled = count + 1, index, False
    offers: list[tuple[str, int]] = []
    if current and param is not None and param.kind in NAME_KINDS:  # a name may go on: ``Mira V``
        offers += _values(text, args[start:], current, param, names)
    at: Param | None = param
    if param is None or not (param.rest or (param.keyword and not filled)):
        at = positional[count] if count < len(positional) else None
    if at is not None and at is not param:
        offers += _values(text, [], current, at, names)
    elif at is not None and at.kind not in NAME_KINDS:
        offers += _values(text, args[start:], current, at, names)
    if at is not None and at.keyword and not at.rest and not filled:
        return offers  # ``--limit `` waits for its number, not another keyword
    unused = [str(p.keyword) for p in params if p.keyword and p.name not in used]
    return offers + [(k, -len(current)) for k in _matches(current, unused)]


def _choice_words(param: Param, current: str) -> tuple[str, ...]:
    """A choice's words: the choices, and once something is typed their names in every language
    too (``Ле`` completes to ``Лесанг``, which the parser reads as ``lesang``); ``_values`` offers the
    names only where no choice itself begins so."""
    if not current:
        return param.choices
    labels = (label for names in param.choice_texts.values() for label in names.values())
    return tuple(dict.fromkeys((*param.choices, *labels)))


def _takes(param: Param, word: str) -> bool:
    """Whether ``word`` may be ``param``'s value, as far as the console can tell without the vault."""
    folded = word.casefold()
    if param.choices:
        return any(c.casefold().startswith(folded) for c in _choice_words(param, word))
    if param.kind in ("integer", "modifier"):
        return bool(re.fullmatch(r"[+-]?\d+", word))
    return True


def _values(
    text: str, spans: Sequence[tuple[int, int]], current: str, param: Param, names: Names
) -> list[tuple[str, int]]:
    """The values of ``param`` for the word under the cursor (a name: from its first word on)."""
    here = -len(current)
    if current:  # the word under the cursor is part of a name too
        spans = [*spans, (len(text) - len(current), len(text))]
    if param.choices:
        found = _matches(current, param.choices) or _matches(current, _choice_words(param, current))
        return [(c, here) for c in found]
    if param.kind in ("trait", "pool"):
        head, _, last = current.rpartition("+")  # a pool completes its last word: ``dex+fir``
        traits = [
            (f"{head}+{t}" if head or current.startswith("+") else t, here)
            for t in _matches(last, names.traits)
        ]
        # The other side of a contest may be a character (``vs Dorian mental``).
        return traits + (_names(text, spans, current, names.characters) if param.keyword else [])
    if param.kind == "notation":
        return [(s, here) for s in suggestions(current) if s.startswith(current) and s != current]
    if param.kind == "house_rule":
        return [(h, here) for h in _matches(current, names.house_rules)]
    if param.kind in NAME_KINDS:
        candidates = {
            "character": names.characters,
            "own_character": names.own_characters or names.characters,
            "power": names.powers,
            "person": names.people,
        }[param.kind]
        return _names(text, spans, current, candidates)
    low, high = param.minimum, param.maximum
    if param.kind == "integer" and low is not None and high is not None and high - low < 10:
        return [(n, here) for n in _matches(current, [str(n) for n in range(low, high + 1)])]
    return []


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
