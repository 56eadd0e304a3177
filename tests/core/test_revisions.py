"""``gateway.ops.revisions`` reads the migration graph from the files' own lines (for ``gateway status``,
without Alembic): it must be Alembic's graph, and judge a vault as ``Readiness`` does."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.script import ScriptDirectory

from gateway.ops.revisions import CORE_VERSIONS, heads, judge, read_graph
from gateway.ops.status import migrations
from gateway.vault.migrate import alembic_config


def test_the_graph_is_alembics() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    graph = read_graph([CORE_VERSIONS])
    assert set(graph) == {rev.revision for rev in script.walk_revisions()}
    for rev in script.walk_revisions():
        assert set(graph[rev.revision]) == set(rev._versioned_down_revisions)
    assert heads(graph) == set(script.get_heads())


def test_branches_and_merges_are_read(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text('revision = "a"\ndown_revision = None\n')
    (tmp_path / "b.py").write_text('revision: str = "b"\ndown_revision: str | None = "a"\n')
    (tmp_path / "c.py").write_text("revision = 'c'\ndown_revision = 'a'\n")
    (tmp_path / "m.py").write_text('revision = "m"\ndown_revision = ("b", "c")\n')
    (tmp_path / "helpers.py").write_text("def upgrade(): pass\n")  # no revision: not one
    graph = read_graph([tmp_path])
    assert graph == {"a": (), "b": ("a",), "c": ("a",), "m": ("b", "c")}
    assert heads(graph) == {"m"}


def test_the_verdicts() -> None:
    graph = read_graph([CORE_VERSIONS])
    [head] = heads(graph)
    first = min(graph)
    assert judge(set(), {head}, graph.__contains__).reason.startswith("the vault is not migrated")
    behind = judge({first}, {head}, graph.__contains__)
    assert not behind.ready and behind.reason == (
        f"the vault is at {first}, behind {head}: run gateway db upgrade"
    )
    assert judge({head}, {head}, graph.__contains__).reason == f"the vault is at {head}"
    # status: a revision the core has no file for (a newer release's) is still ready
    newer = migrations({"9999_from_the_future"}, [])
    assert newer.ready and newer.reason == "the vault is at 9999_from_the_future, newer than this code"
    assert migrations({head}, []).ready


def test_a_computed_revision_is_named_not_guessed(tmp_path: Path) -> None:
    (tmp_path / "x.py").write_text("revision = make_id()\ndown_revision = None\n")
    with pytest.raises(ValueError, match=r"x\.py: revision and down_revision must be plain strings"):
        read_graph([tmp_path])
