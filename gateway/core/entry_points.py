"""The installed entry points, read once: each ``importlib.metadata.entry_points(group=...)`` reads
every installed distribution's metadata again (some 100 of them with the test tools, 5-7 ms of CPU
each time), and one start of the console asked five times. Read again when ``sys.path`` changes (a
test that puts a plugin's site on it). Only the standard library: this runs before every command.
"""

from __future__ import annotations

import functools
import sys
from importlib.metadata import EntryPoints, entry_points
from typing import cast


def group(name: str) -> EntryPoints:
    """The entry points of the group ``name``."""
    return _every(tuple(sys.path)).select(group=name)


@functools.lru_cache(maxsize=4)
def _every(path: tuple[str, ...]) -> EntryPoints:
    # Python 3.11 gives every group as a SelectableGroups, whose select(group=...) is EntryPoints'.
    return cast(EntryPoints, entry_points())
