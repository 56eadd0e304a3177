"""Rolling restarts rely on every migration's upgrade only adding (tables, indexes, columns a
previous version can ignore): a process of the previous version keeps working on an upgraded vault
until it is restarted (README, "Deployment"). A migration that drops, renames or alters must be
split (expand now, contract a release later) and listed here with the reason."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MIGRATIONS = sorted(ROOT.glob("gateway/vault/migrations/versions/*.py")) + sorted(
    ROOT.glob("plugins/*/migrations/versions/*.py")
)
DESTRUCTIVE = {"drop_table", "drop_column", "drop_index", "drop_constraint", "alter_column", "rename_table"}
ALLOWED = {
    # An index that was not unique: the previous version's queries only get slower, never wrong.
    "0003_outbox_queues.py": "drops ix_outbox_due (not unique), replaced by ix_outbox_queue",
}


def destructive_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    upgrade = next(
        (node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "upgrade"), None
    )
    assert upgrade is not None, f"{path.name} has no upgrade()"
    return [
        f"{path.name}:{node.lineno} {node.func.attr}"
        for node in ast.walk(upgrade)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in DESTRUCTIVE
    ]


def test_there_are_migrations() -> None:
    assert any(path.name.startswith("0001") for path in MIGRATIONS)


@pytest.mark.parametrize("path", MIGRATIONS, ids=lambda p: p.name)
def test_upgrade_only_adds(path: Path) -> None:
    if path.name in ALLOWED:
        return
    assert destructive_calls(path) == []


def test_the_check_sees_a_drop(tmp_path: Path) -> None:
    bad = tmp_path / "0099_bad.py"
    bad.write_text("def upgrade():\n    with op.batch_alter_table('x') as b:\n        b.drop_column('y')\n")
    assert destructive_calls(bad) == ["0099_bad.py:3 drop_column"]
