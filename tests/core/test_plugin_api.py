"""The public plugin API: ``gateway`` re-exports it lazily, ``gateway.core.spec`` is a leaf, and a hook
implementation that names no hook stops the gateway at start with the plugin's name."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import gateway
from gateway.core.hookspecs import hookimpl
from gateway.core.plugins import PluginError, build_plugin_manager

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


@pytest.mark.parametrize("leaf", ["spec", "params", "sheet_spec", "summary"])
def test_spec_is_a_leaf(leaf: str) -> None:
    """``gateway.core.spec`` imports nothing of the gateway at run time (only for type checking) but the
    leaf ``gateway.core.params``, which imports nothing of the gateway; ``gateway.core.sheet_spec`` only the
    leaf ``gateway.core.summary``."""
    tree = ast.parse((ROOT / "gateway" / "core" / f"{leaf}.py").read_text())
    leaves = {"spec": "gateway.core.params", "sheet_spec": "gateway.core.summary"}
    for node in tree.body:  # top level only: ``if TYPE_CHECKING:`` blocks are not imports at run time
        if isinstance(node, ast.ImportFrom):
            allowed = node.module == leaves.get(leaf)
            assert allowed or not (node.module or "").startswith("gateway"), ast.unparse(node)
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


# Besides ``from gateway import NAME``, the modules a plugin or adapter may import from: the shared
# building blocks of rule systems, the core's API for adapters, and the test doubles.
BUILDING_BLOCKS = {
    "gateway.features.characters",
    "gateway.core.scene",
    "gateway.core.i18n",
    "gateway.core.payloads",
    "gateway.core.events",
    "gateway.core.summary",
    "gateway.core.sheet_spec",  # the sheet a rule system declares (RuleSystem.sheet), every adapter draws
    "gateway.features.roles",
    "gateway.testing",
    "gateway.rules.numbers",  # the one reader of numbers people type, in a command or a request
    "gateway.core.web_tool",  # the odds forms a rule system declares (RuleSystem.web_tools), the web draws
    "gateway.core.web_pages",  # its practice table and budget calculator, likewise
    "gateway.rules.charts",  # an odds reply's chart: a rule system builds it, Discord and Matrix send its PNG
}
RULE_SYSTEM_MODULES = {"gateway.rules", "gateway.vault", "gateway.vault.models"}  # sheets live in the vault
ADAPTER_MODULES = {
    "gateway.delivery.queue",
    "gateway.delivery.seen",
    "gateway.core.adapter_state",
    "gateway.features.channels",
    "gateway.delivery.leases",
    "gateway.features.identities",
    "gateway.delivery.pacing",
    "gateway.ops.progress",
    "gateway.delivery.rate_buckets",
    "gateway.features.macros",  # names_seen: the macro names a menu offers
    "gateway.features.web_sessions",  # the web's sign-in links and sessions (token hashes only)
    "gateway.features.profiles",  # a character's portrait, which the web uploads and serves
    "gateway.features.records",  # read-only rows a page shows: characters, rolls, audit, the Storyteller log
    "gateway.features.verify",  # what ``verify ID`` answers, for the web's /r/ID as for chat
    "gateway.features.since",  # the one reader of --since values, for the web's Storyteller log as for chat
    # the core's own words (the internal-error line) for replies an adapter makes
    "gateway.core.core_messages",
    "gateway.features.notation.examples",  # dice notation to offer as someone types (Discord's autocomplete)
    "gateway.core.params",  # commands' typed parameters: slash options, completion, forms (render, bind)
    "gateway.features.house_rules.declare",  # a system's house-rule switches, to offer as someone types
}


def _allowed(module: str, names: list[str], root: str) -> bool:
    if module == "gateway":
        public = set(gateway.__all__) | {m.rpartition(".")[2] for m in BUILDING_BLOCKS | ADAPTER_MODULES}
        public |= {"rules", "vault"} if root != "adapters" else set()
        return set(names) <= public
    allowed = BUILDING_BLOCKS | (ADAPTER_MODULES if root != "plugins" else RULE_SYSTEM_MODULES)
    if root == "tests/thirdparty":
        allowed |= RULE_SYSTEM_MODULES

    def fits(name: str) -> bool:
        return name in allowed or (root != "adapters" and name.startswith("gateway.rules."))

    # ``from gateway.features import channels`` imports the module ``gateway.features.channels``.
    return fits(module) or (bool(names) and all(fits(f"{module}.{name}") for name in names))


def _imports_of_the_core(root: str, base: Path = ROOT) -> list[str]:
    """``file:line: the import`` for each import of the core that ``root``'s code may not make."""
    wrong = []
    for path in sorted((base / root).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                module, names = node.module, [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                module, names = next((a.name for a in node.names if a.name.startswith("gateway")), ""), []
            else:
                continue
            if module.split(".")[0] == "gateway" and not _allowed(module, names, root):
                wrong.append(f"{path.relative_to(base).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return wrong


@pytest.mark.parametrize("root", ["plugins", "adapters", "tests/thirdparty"])
def test_plugins_and_adapters_use_only_the_public_api(root: str) -> None:
    """The core's other modules (router, outbox worker, vault engine, registry, ...) may change
    between releases; a plugin or adapter that reached into them would break with it."""
    assert _imports_of_the_core(root) == []


# Who may not import whom: the core neither side; a rule system no adapter, an adapter no rule system
# (what an adapter shows of a system comes from the system objects, ``services.systems()``).
FORBIDDEN = {"gateway": ("plugins", "adapters"), "plugins": ("adapters",), "adapters": ("plugins",)}


def _crossings(root: str, base: Path = ROOT) -> list[str]:
    """``file:line: the import`` for each import in ``root`` of a package ``FORBIDDEN`` keeps from it
    (nested imports and ``TYPE_CHECKING`` blocks too)."""
    wrong = []
    for path in sorted((base / root).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            if any(m.split(".")[0] in FORBIDDEN[root] for m in modules):
                wrong.append(f"{path.relative_to(base).as_posix()}:{node.lineno}: {ast.unparse(node)}")
    return wrong


@pytest.mark.parametrize("root", sorted(FORBIDDEN))
def test_the_core_plugins_and_adapters_do_not_import_across(root: str) -> None:
    assert _crossings(root) == []


def test_a_crossing_is_named_with_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "adapters" / "web").mkdir(parents=True)
    (tmp_path / "adapters" / "web" / "page.py").write_text(
        "from plugins.nightcap.sheet import TRAITS\nimport os, plugins.pravidla\n"
        "def f():\n    import plugins\n"
    )
    (tmp_path / "plugins" / "x").mkdir(parents=True)
    (tmp_path / "plugins" / "x" / "y.py").write_text("from adapters.discord import render\nfrom . import z\n")
    assert _crossings("adapters", tmp_path) == [
        "adapters/web/page.py:1: from plugins.nightcap.sheet import TRAITS",
        "adapters/web/page.py:2: import os, plugins.pravidla",
        "adapters/web/page.py:4: import plugins",
    ]
    assert _crossings("plugins", tmp_path) == ["plugins/x/y.py:1: from adapters.discord import render"]


def test_an_adapter_touching_the_vault_is_named_with_file_and_line(tmp_path: Path) -> None:
    """Every form of import is found, a nested one too. Adapters import no module of the vault at
    all, not even the one with the handle: they reach it through the adapter API modules."""
    (tmp_path / "adapters" / "web").mkdir(parents=True)
    (tmp_path / "adapters" / "web" / "rows.py").write_text(
        "import gateway.vault.models\n"
        "from gateway.vault.unit import Unit\n"
        "from gateway.vault import repo, Vault\n"
        "from gateway import queue, Channel\n"
        "def f():\n    from gateway.vault.prepared import Prepared\n"
    )
    assert _imports_of_the_core("adapters", tmp_path) == [
        "adapters/web/rows.py:1: import gateway.vault.models",
        "adapters/web/rows.py:2: from gateway.vault.unit import Unit",
        "adapters/web/rows.py:3: from gateway.vault import repo, Vault",
        "adapters/web/rows.py:6: from gateway.vault.prepared import Prepared",
    ]


def test_the_public_api_check_catches_a_private_import(tmp_path: Path) -> None:
    assert not _allowed("gateway.core.router", ["Router"], "plugins")
    assert not _allowed("gateway.vault.models", ["Character"], "adapters")
    assert not _allowed("gateway", ["Router"], "adapters")
    assert _allowed("gateway", ["CommandContext", "hookimpl"], "plugins")
    assert _allowed("gateway.rules.numbers", ["is_digits"], "plugins")
