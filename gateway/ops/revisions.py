"""Whether a vault's Alembic revisions are current for this code: the verdict, and the revision
graph read from the migration files' own ``revision =`` / ``down_revision =`` lines.

``Readiness`` (``/readyz``, a process's start) and ``gateway status`` judge with it: Alembic imports
every revision file and itself, a third of a second of a start that should be quick, and is needed
only to upgrade. A test holds the graph read here to Alembic's.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

CORE_VERSIONS = Path(__file__).parents[1] / "vault" / "migrations" / "versions"
_ASSIGNED = re.compile(r"^(revision|down_revision)\s*(?::[^=]*)?=\s*(.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True)
class Verdict:
    ready: bool
    reason: str  # one line: what is wrong, or what the vault is at


def read_graph(locations: Iterable[str | Path]) -> dict[str, tuple[str, ...]]:
    """Every revision in these versions folders, with the revisions it follows."""
    graph: dict[str, tuple[str, ...]] = {}
    for folder in locations:
        for script in sorted(Path(folder).glob("*.py")):
            found = dict(_ASSIGNED.findall(script.read_text(encoding="utf-8")))
            if "revision" not in found:
                continue
            try:
                revision = ast.literal_eval(found["revision"])
                down = ast.literal_eval(found.get("down_revision", "None"))
            except (ValueError, SyntaxError):
                # Alembic's template writes literals; a computed one would need the file imported.
                raise ValueError(f"{script}: revision and down_revision must be plain strings") from None
            graph[str(revision)] = (down,) if isinstance(down, str) else tuple(down or ())
    return graph


def heads(graph: dict[str, tuple[str, ...]]) -> set[str]:
    """The revisions no other revision follows."""
    followed = {down for downs in graph.values() for down in downs}
    return set(graph) - followed


def judge(current: set[str], heads: set[str], known: Callable[[str], bool]) -> Verdict:
    """Whether a vault at revisions ``current`` is current for code whose heads are ``heads``;
    ``known`` says whether this code has a revision's file (an unknown one is a newer release's)."""
    if not current:
        return Verdict(False, "the vault is not migrated: run gateway db upgrade")
    known_here = {rev for rev in current if known(rev)}
    behind = sorted(rev for rev in known_here if rev not in heads)
    if behind:
        return Verdict(
            False,
            f"the vault is at {', '.join(behind)}, behind {', '.join(sorted(heads))}: run gateway db upgrade",
        )
    missing = heads - current
    if missing and known_here == current:  # a branch (a plugin's tables) never migrated
        return Verdict(False, f"the vault lacks {', '.join(sorted(missing))}: run gateway db upgrade")
    newer = sorted(current - known_here)
    if newer:
        return Verdict(True, f"the vault is at {', '.join(newer)}, newer than this code")
    return Verdict(True, f"the vault is at {', '.join(sorted(current))}")
