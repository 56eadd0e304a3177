"""Adapters reach the vault through the core's API only (``gateway.adapter_state``, ``gateway.queue``,
``gateway.seen``, ...), never through its tables, statements or units: a platform package that
builds rows itself ties the core's schema to every adapter."""

from __future__ import annotations

import ast
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import gateway.vault

ROOT = Path(__file__).resolve().parents[2]
# Every module of the vault package; ``from gateway.vault import Vault`` (the handle) stays allowed.
VAULT_MODULES = {info.name for info in pkgutil.iter_modules(gateway.vault.__path__)}


def vault_imports(tree: ast.AST) -> Iterator[tuple[int, str, str | None]]:
    """(line, module, name imported from it or None) for every import of a module inside
    ``gateway.vault``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gateway.vault."):
                    yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                if node.module.startswith("gateway.vault."):
                    yield node.lineno, node.module, alias.name
                elif node.module == "gateway.vault" and alias.name in VAULT_MODULES:
                    yield node.lineno, f"gateway.vault.{alias.name}", None


def violations(base: Path, package: str = "adapters") -> list[str]:
    """``file:line: imports module`` for each forbidden import under ``base/package``."""
    found = []
    for path in sorted((base / package).rglob("*.py")):
        where = path.relative_to(base).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=where)
        for line, module, name in vault_imports(tree):
            found.append(f"{where}:{line}: imports {module}" + (f".{name}" if name else ""))
    return found


def test_no_adapter_imports_the_vault_internals() -> None:
    assert violations(ROOT) == []


def test_a_violation_names_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "adapters" / "web").mkdir(parents=True)
    (tmp_path / "adapters" / "web" / "rows.py").write_text(
        '"""A bad adapter."""\nfrom gateway.vault.models import OutboxRow\n', encoding="utf-8"
    )
    assert violations(tmp_path) == ["adapters/web/rows.py:2: imports gateway.vault.models.OutboxRow"]


def test_the_check_finds_each_form_of_import() -> None:
    tree = ast.parse(
        "import gateway.vault.models\n"
        "from gateway.vault.unit import Unit\n"
        "from gateway.vault import repo, Vault\n"
        "def f():\n    from gateway.vault.prepared import Prepared\n"
    )
    assert sorted(vault_imports(tree)) == [
        (1, "gateway.vault.models", None),
        (2, "gateway.vault.unit", "Unit"),
        (3, "gateway.vault.repo", None),
        (5, "gateway.vault.prepared", "Prepared"),
    ]
