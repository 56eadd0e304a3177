"""``help`` by topic: commands grouped by their first word; paged where the platform's lines are short.

A *topic* is a first word shared by two or more commands (``char``, ``st``, ``init``, ``team``...);
every other command is top-level. ``help`` lists the top-level commands and the topics with their
counts; ``help TOPIC [PAGE]`` lists a topic's commands with their summaries: a page at a time where
the adapter gives a page size (``InboundMessage.page_bytes``: IRC's 350), else the whole topic at
once (the console, the web, Discord, Matrix). Pure functions: the texts come in, the lines go out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gateway.core.spec import Command

# Bytes of UTF-8 one answer may take where none is given: an IRC line has 512 with the sender's
# mask, the verb, the target and CR-LF; 350 leaves room for a long mask and nick.
PAGE_BYTES = 350


@dataclass(frozen=True)
class Groups:
    top: list[str]  # top-level command names
    topics: dict[str, list[Command]]  # first word -> its commands, by name


def group(commands: Sequence[Command]) -> Groups:
    by_word: dict[str, list[Command]] = {}
    for command in commands:
        by_word.setdefault(command.name.split(" ", 1)[0], []).append(command)
    top = [cs[0].name for cs in by_word.values() if len(cs) == 1]
    topics = {word: cs for word, cs in sorted(by_word.items()) if len(cs) > 1}
    return Groups(top=sorted(top), topics=topics)


def pages(
    entries: Sequence[str],
    frame: Callable[[str, int, int], str],
    budget: int = PAGE_BYTES,
    sep: str = "; ",
) -> list[str]:
    """The entries cut into pages (``sep`` between them) so that ``frame(body, page, pages)`` stays
    within ``budget`` bytes; an entry too long for a page alone gets a page of its own."""
    count = 1
    while True:
        out: list[list[str]] = [[]]
        for entry in entries:
            trial = sep.join([*out[-1], entry])
            if out[-1] and len(frame(trial, len(out), max(count, 9)).encode()) > budget:
                out.append([entry])
            else:
                out[-1].append(entry)
        if len(out) <= count:
            return [frame(sep.join(body), i + 1, len(out)) for i, body in enumerate(out)]
        count = len(out)
