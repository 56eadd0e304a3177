"""Each rule system keeps its rules apart from its command code, and the tree says which is which.

Command code (handlers that read the vault, build replies, talk to the router) lives in modules named
``commands.py``, ``*_commands.py``, ``store.py`` or ``entry.py``, or in a ``commands`` package. Every other
module of a plugin is rules: pure functions and declarations with no I/O, so they can be read, tested and
reused (the web's tools, the docs, another system) without a vault or an event loop. This test reads each
module's source: a rules module defines no ``async def`` and imports nothing that does I/O, nor command code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Every rule system in the tree, so a new one is held to the split from its first commit.
SYSTEMS = sorted(p.name for p in (ROOT / "plugins").iterdir() if (p / "__init__.py").is_file())
IO_MODULES = (
    "sqlmodel",
    "sqlalchemy",
    "aiohttp",
    "asyncio",
    "gateway.vault",
    "gateway.delivery",
    "gateway.ops",
)


def is_command_module(path: Path) -> bool:
    name = path.stem
    return (
        name in {"commands", "store", "entry"}
        or name.endswith("_commands")
        or "commands" in path.parent.relative_to(ROOT / "plugins").parts
    )


def imported(tree: ast.Module) -> list[str]:
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
    return names


def impurities(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [f"async def {n.name}" for n in ast.walk(tree) if isinstance(n, ast.AsyncFunctionDef)]
    for name in imported(tree):
        if any(name == io or name.startswith(io + ".") for io in IO_MODULES):
            found.append(f"imports {name}")
        elif name.startswith("plugins.") and is_command_module(ROOT / (name.replace(".", "/") + ".py")):
            found.append(f"imports command code {name}")
    return found


@pytest.mark.parametrize("system", SYSTEMS)
def test_rules_modules_do_no_io(system: str) -> None:
    problems = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "plugins" / system).rglob("*.py"))
        if not is_command_module(path) and path.name != "__init__.py" and (found := impurities(path))
    }
    assert problems == {}


def test_the_check_sees_io(tmp_path: Path) -> None:
    assert {"nightcap", "decanter", "dramatic", "pravidla", "nightwanderers"} <= set(SYSTEMS)
    rules = ROOT / "plugins" / "nightcap" / "odds.py"
    assert not is_command_module(rules) and is_command_module(rules.with_name("odds_commands.py"))
    bad = tmp_path / "bad.py"
    bad.write_text("from sqlmodel import select\nasync def handler(ctx):\n    return None\n")
    assert impurities(bad) == ["async def handler", "imports sqlmodel", "imports sqlmodel.select"]
