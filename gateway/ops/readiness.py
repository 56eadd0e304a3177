"""Whether this process may take traffic: the vault answers and its migrations are current.

``/readyz`` asks every time: a ``SELECT 1`` (with a short timeout) each call, the vault's Alembic
revisions at most every ``REVISION_TTL`` seconds (they change only with ``gateway db upgrade``).
The migration graph comes from ``gateway.ops.revisions`` (``gateway status`` judges with it too):
Alembic is imported only to upgrade.

Current means "at this code's heads or newer": a vault whose revisions this code does not know was
upgraded by a newer release (``gateway db upgrade`` runs before a rollout), and the processes still on
the old code stay ready meanwhile. A vault behind a head, or never migrated, is not ready.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from pathlib import Path

from sqlalchemy import Integer, String, text

from gateway.core.errors import one_line
from gateway.ops.revisions import CORE_VERSIONS, Verdict, heads, judge, read_graph
from gateway.vault.engine import Vault
from gateway.vault.prepared import Prepared

PROBE_TIMEOUT = 2.0  # seconds the vault has to answer
REVISION_TTL = 5.0  # seconds a revision check is trusted

_COUNT = {"n": Integer()}  # a text() statement's result types: Prepared reads rows by them
SELECT_ONE = Prepared(text("SELECT 1 AS n").columns(**_COUNT))
HAS_VERSIONS = {
    "sqlite": Prepared(
        text(
            "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'"
        ).columns(**_COUNT)
    ),
    "postgresql": Prepared(
        text(
            "SELECT count(*) AS n FROM pg_tables"
            " WHERE tablename = 'alembic_version' AND schemaname = current_schema()"
        ).columns(**_COUNT)
    ),
}
VERSIONS = Prepared(text("SELECT version_num FROM alembic_version").columns(version_num=String()))


# The files do not change while the process runs; every Gateway of a test run shares the reading.
_GRAPHS: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}


class Readiness:
    """Checks one vault against the migrations of this code (the core's and the plugins')."""

    def __init__(self, vault: Vault, extra_locations: Iterable[str | Path] = ()) -> None:
        self.vault = vault
        self._locations = list(extra_locations)
        self._graph: dict[str, tuple[str, ...]] | None = None
        self._revisions: tuple[float, Verdict] | None = None  # (when checked, what it said)
        self.ttl = REVISION_TTL

    def graph(self) -> dict[str, tuple[str, ...]]:
        """The migration scripts' revisions, read once per process from their files' revision lines
        (``gateway.ops.revisions``: Alembic, which imports every file, is for upgrading only)."""
        if self._graph is None:
            key = tuple(str(p) for p in self._locations)
            if key not in _GRAPHS:
                _GRAPHS[key] = read_graph([CORE_VERSIONS, *self._locations])
            self._graph = _GRAPHS[key]
        return self._graph

    def judge(self, current: set[str]) -> Verdict:
        """Whether a vault at revisions ``current`` is current for this code."""
        graph = self.graph()
        return judge(current, heads(graph), graph.__contains__)

    async def revisions(self) -> set[str]:
        """The vault's Alembic revisions (empty when it was never migrated)."""
        async with self.vault.unit() as unit:
            row = await unit.first(HAS_VERSIONS[unit.dialect], {})
            if row is None or not row[0]:
                return set()
            return {str(rev) for (rev,) in await unit.all(VERSIONS, {})}

    async def check(self, *, fresh: bool = False) -> Verdict:
        """Ready or not, and why, in one line. ``fresh`` reads the revisions even when a recent check
        is trusted."""
        now = time.monotonic()
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                async with self.vault.unit() as unit:
                    await unit.first(SELECT_ONE, {})
                cached = self._revisions
                if fresh or cached is None or now - cached[0] >= self.ttl:
                    if self._graph is None:  # files: read them off the event loop
                        await asyncio.to_thread(self.graph)
                    cached = (now, self.judge(await self.revisions()))
                    self._revisions = cached
        except TimeoutError:
            return Verdict(False, f"the vault did not answer within {PROBE_TIMEOUT:g} s")
        except Exception as exc:
            return Verdict(False, f"the vault cannot be reached: {_one_line(exc)}")
        return cached[1]


def _one_line(exc: BaseException) -> str:
    said = str(exc).strip()
    return f"{type(exc).__name__}: {one_line(exc)[:200]}" if said else type(exc).__name__
