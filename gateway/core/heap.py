"""The garbage collector at start-up.

Loading the core and the plugins makes some 100k objects (modules, classes, SQLAlchemy's tables)
that live as long as the process. While they are made, the collector's full passes walk them again
and again, and the collection before they are frozen walks them once more: about 0.15 s of CPU,
a sixth of the console's first answer. So in a process the CLI runs (``cli_process``), modules load
with the collector paused and what they made is frozen at once (``loading``); the start-up freeze
(``freeze_startup_heap``) then walks only what came after. Elsewhere (the tests, an embedding
program) a freeze would keep for good whatever garbage waits for the next collection, so
``loading`` changes nothing there.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_cli = False  # inside gateway.ops.cli.main: the process is the CLI's
_startup_frozen = False


@contextmanager
def cli_process() -> Iterator[None]:
    """The extent of the CLI's ``main``: its loads may freeze what they made."""
    global _cli
    before, _cli = _cli, True
    try:
        yield
    finally:
        _cli = before


@contextmanager
def loading() -> Iterator[None]:
    """Modules loading: no collection while they do (they make no garbage worth one), and in a
    CLI process what they made is frozen after, out of every later collection's way."""
    if not (_cli and gc.isenabled()):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def freeze_startup_heap() -> None:
    """Once a process, at the end of a gateway's start: move what is loaded by now (modules,
    plugins, SQLAlchemy's tables and compiled statements: some 140k objects) out of the
    collector's reach. A full collection walked it all, 80-95 ms of the event loop each time (every
    few thousand requests): the half-load p99 spikes of ``tests.bench.secondlife``. After the
    freeze it walks only what came later. The garbage already there is collected first, so that
    none of it is kept for good (a pass over what ``loading`` has not frozen already)."""
    global _startup_frozen
    if not _startup_frozen:
        _startup_frozen = True
        gc.collect()
        gc.freeze()
