"""The generated parts of the docs (cog blocks) match the code: the CLI reference, the configuration
reference and the command reference of every rule system. A stale page fails here; refresh it with
``.venv/bin/cog -r -I docs/_tools docs/*.md docs/*/*.md``."""

from __future__ import annotations

import re
import sys

import pytest
from cogapp import Cog  # type: ignore[import-untyped]

from gateway.core.command_reference import commands_of, installed_registry
from gateway.core.settings import Settings
from tests.docs.pages import DOCS, TOOLS, pages

CLI_PYTHON = (3, 11)  # requires-python's floor, and what CI runs
REFRESH = "Run: .venv/bin/cog -r -I docs/_tools docs/*.md docs/*/*.md"
SYSTEM_PAGES = {
    None: "players/commands.md",
    "nightcap": "players/nightcap.md",
    "decanter": "players/decanter.md",
    "dramatic": "players/dramatic.md",
    "pravidla": "players/pravidla.md",
    "nightwanderers": "players/nightwanderers.md",
}


def generated(text: str) -> str:
    """The output parts of a page's cog blocks."""
    return "\n".join(re.findall(r"\]\]\] -->\n(.*?)<!-- \[\[\[end\]\]\]", text, flags=re.DOTALL))


def test_every_generated_part_is_fresh(capsys: pytest.CaptureFixture[str]) -> None:
    with_cog = [str(p) for p in pages() if "[[[cog" in p.read_text(encoding="utf-8")]
    assert len(with_cog) >= 8, with_cog  # six command references, the CLI and the configuration
    if sys.version_info[:2] != CLI_PYTHON:
        # argparse lays --help out differently from one Python to the next (3.13 writes "-o, --out
        # FILE"): the CLI page is checked on the Python it is generated with, the project's own.
        with_cog.remove(str(DOCS / "running" / "cli.md"))
    sys.path.insert(0, str(TOOLS))
    try:
        status = Cog().main(["cog", "--check", "--diff", "-I", str(TOOLS), *with_cog])
    finally:
        sys.path.remove(str(TOOLS))
    assert status == 0, capsys.readouterr().out + "\n" + REFRESH


@pytest.mark.parametrize("system", list(SYSTEM_PAGES), ids=lambda s: s or "core")
def test_every_command_is_in_its_reference(system: str | None) -> None:
    page = generated((DOCS / SYSTEM_PAGES[system]).read_text(encoding="utf-8"))
    headings = re.findall(r"^### `([^`]+)`$", page, flags=re.MULTILINE)
    assert headings == [c.name for c in commands_of(installed_registry(), system)]


def test_every_rule_system_has_its_page() -> None:
    assert set(installed_registry().systems) == {s for s in SYSTEM_PAGES if s is not None}


def test_every_config_key_is_in_the_configuration_reference() -> None:
    page = generated((DOCS / "running" / "configuration.md").read_text(encoding="utf-8"))
    tables = dict(
        re.findall(r"^#### `\[([^\]]+)\]`\n(.*?)(?=^#### |^### |\Z)", page, flags=re.DOTALL | re.MULTILINE)
    )
    expected = {name: info.annotation for name, info in Settings.model_fields.items()}
    for name, section in expected.items():
        keys = set(re.findall(r"^\| `(\w+)` \|", tables[name], flags=re.MULTILINE))
        assert keys == set(section.model_fields), name  # type: ignore[union-attr]
    for name, system in installed_registry().systems.items():
        if system.settings_model is not None:
            keys = set(re.findall(r"^\| `(\w+)` \|", tables[name], flags=re.MULTILINE))
            assert keys == set(system.settings_model.model_fields), name
    assert {"secondlife", "discord", "irc.NETWORK", "matrix", "matrix.ACCOUNT", "web"} <= set(tables)


def test_every_cli_subcommand_is_in_the_cli_reference() -> None:
    from gateway.ops.cli import build_parser, plugin_cli_commands, walk_parsers

    page = generated((DOCS / "running" / "cli.md").read_text(encoding="utf-8"))
    shown = re.findall(r"^## `gateway ?([^`]*)`$", page, flags=re.MULTILINE)
    parser = build_parser(plugin_cli_commands())
    assert shown == ["", *(" ".join(words) for words, _ in walk_parsers(parser))]
