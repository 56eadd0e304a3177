"""The closest command names to a word that names none (``rol`` -> ``roll``), for the router's
"Unknown command" line. Pure: it reads the names it is given."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence

from gateway.core.spec import Command

CUTOFF = 0.6  # difflib's own default: "rol"/"roll" scores 0.86, "frobnicate"/"roll" 0.29
MOST = 4


def closest_commands(words: Sequence[str], names: Iterable[str]) -> list[str]:
    """Command names (and aliases) close to what ``words`` begin with, best first; at most ``MOST``.

    A first word that begins only longer names (``tug`` of ``tug start``) offers those names, the
    one closest to the second word typed first; otherwise the first word is matched against the
    names' first words."""
    if not words:
        return []
    folded = [w.casefold() for w in words]
    known = sorted(set(names))
    firsts = sorted({name.split()[0] for name in known})
    head = folded[0]
    if head not in firsts:
        close = difflib.get_close_matches(head, firsts, n=1, cutoff=CUTOFF)
        if not close:
            return []
        head = close[0]
    if head in known:
        return [head]
    longer = [name for name in known if name.split()[0] == head]
    if len(folded) > 1:
        typed = " ".join([head, *folded[1:2]])
        two = [name for name in longer if len(name.split()) == 2]
        best = difflib.get_close_matches(typed, two, n=1, cutoff=CUTOFF)
        longer = best + [name for name in longer if name not in best]
    return longer[:MOST]


def runnable_names(commands: Iterable[Command], storyteller: bool) -> list[str]:
    """The names and aliases of ``commands`` a person may run (Storyteller ones for Storytellers)."""
    return [
        name
        for command in commands
        if storyteller or command.role != "storyteller"
        for name in (command.name, *command.aliases)
    ]
