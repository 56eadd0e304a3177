"""The public plugin API: ``gateway`` re-exports it lazily, ``gateway.spec`` is a leaf, and a hook
implementation that names no hook stops the gateway at start with the plugin's name."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import gateway
from gateway.hookspecs import hookimpl
from gateway.plugins import PluginError, build_plugin_manager

ROOT = Path(__file__).resolve().parents[2]


def test_every_exported_name_resolves() -> None:
    for name in gateway.__all__:
        assert getattr(gateway, name) is not None, name
    with pytest.raises(AttributeError):
        _ = gateway.NoSuchThing  # type: ignore[attr-defined]


def test_importing_gateway_loads_no_dependency() -> None:
    """``python3 -m gateway`` runs this package's ``__init__`` before ``.venv`` exists."""
    code = "import sys, gateway; print([m for m in ('sqlalchemy', 'aiohttp', 'pluggy') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_spec_is_a_leaf() -> None:
    """``gateway.spec`` imports nothing of the gateway at run time (only for type checking)."""
    tree = ast.parse((ROOT / "gateway" / "spec.py").read_text())
    for node in tree.body:  # top level only: ``if TYPE_CHECKING:`` blocks are not imports at run time
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith("gateway"), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("gateway") for alias in node.names), ast.unparse(node)


def test_a_misspelt_hook_fails_at_start_with_the_plugin_name() -> None:
    @hookimpl
    def gateway_register_comands(register: object) -> None:  # one "m": never called
        raise AssertionError

    plugin = SimpleNamespace(gateway_register_comands=gateway_register_comands, __name__="gw_typo")
    with pytest.raises(PluginError, match=r"gw_typo.*gateway_register_comands.*not a gateway hook"):
        build_plugin_manager(extra=[plugin])


def test_a_correct_plugin_loads() -> None:
    @hookimpl
    def gateway_register_commands(register: object) -> None:
        pass

    plugin = SimpleNamespace(gateway_register_commands=gateway_register_commands, __name__="gw_fine")
    pm = build_plugin_manager(extra=[plugin])
    assert pm.is_registered(plugin)
