"""What the docs' cog blocks write: the CLI reference (every ``gateway`` subcommand's ``--help``) and the
configuration reference (every table and key of the settings models, with type, default and meaning).

A cog block imports it (``cog -I docs/_tools``); tests/docs/test_cog.py runs ``cog --check`` over the
pages, so a page that no longer matches the code fails the suite. Refresh the pages with::

    .venv/bin/cog -r -I docs/_tools docs/*.md docs/*/*.md
"""

from __future__ import annotations

import ast
import inspect
import os
import textwrap
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

DOCS_ROOT = Path(__file__).resolve().parents[2]  # the repository
HELP_COLUMNS = "100"  # argparse wraps --help to the terminal; a fixed width keeps the page stable


def cli_reference() -> str:
    """Every ``gateway`` subcommand's ``--help``, the plugins' included, in order of the words."""
    from gateway.ops.cli import build_parser, plugin_cli_commands, walk_parsers

    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        parser = build_parser(plugin_cli_commands())
        parts = [("gateway", parser.format_help())]
        parts += [
            (" ".join(("gateway", *words)), child.format_help()) for words, child in walk_parsers(parser)
        ]
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    out: list[str] = []
    for title, text in parts:
        out += [f"## `{title}`", "", "```text", text.rstrip(), "```", ""]
    return "\n".join(out)


# --- configuration --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A TOML table of the settings file and the model that reads it."""

    name: str
    model: type[BaseModel]
    about: str = ""
    # field name -> the table name its sub-tables have in the file (``accounts`` -> ``matrix.ACCOUNT``)
    nested: tuple[tuple[str, str], ...] = ()


def core_tables() -> list[Table]:
    from gateway.core.settings import Settings

    tables = []
    for name, info in Settings.model_fields.items():
        model = _submodel(info.annotation)
        if model is not None:
            tables.append(Table(name, model))
    return tables


def adapter_tables() -> list[Table]:
    from adapters.discord.config import DiscordSettings
    from adapters.irc.config import NetworkConfig
    from adapters.matrix.settings import MatrixSettings
    from adapters.secondlife.config import SecondLifeConfig
    from adapters.web.config import WebSettings

    return [
        Table("secondlife", SecondLifeConfig, "Second Life HUDs and relays ({doc}`secondlife`)."),
        Table("discord", DiscordSettings, "The Discord bot ({doc}`discord`)."),
        Table("irc.NETWORK", NetworkConfig, "One table per IRC network, named as you like ({doc}`irc`)."),
        Table(
            "matrix",
            MatrixSettings,
            "The Matrix adapter; each sub-table is one bot account ({doc}`matrix`).",
            nested=(("accounts", "matrix.ACCOUNT"),),
        ),
        Table("web", WebSettings, "The web pages ({doc}`web`)."),
    ]


def system_tables() -> list[Table]:
    """Each installed rule system's table, named like the system."""
    from gateway.core.command_reference import installed_registry

    systems = installed_registry().systems
    return [
        Table(name, model, f"The {systems[name].title} rule system.")
        for name in sorted(systems)
        if (model := systems[name].settings_model) is not None
    ]


def _submodel(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``X``, ``X | None``, ``list[X]`` or ``dict[str, X]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in typing.get_args(annotation):
        found = _submodel(arg)
        if found is not None:
            return found
    return None


def type_name(annotation: Any) -> str:
    """A reader's name for a field's type: ``str | None``, ``list[str]``, ``"a" | "b"``."""
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return " | ".join(f'"{a}"' if isinstance(a, str) else repr(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_name(a) for a in typing.get_args(annotation))
    if origin is typing.Annotated:
        return type_name(typing.get_args(annotation)[0])
    if origin is not None:
        args = ", ".join(type_name(a) for a in typing.get_args(annotation))
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    if annotation is type(None):
        return "None"
    if isinstance(annotation, type):
        return "table" if issubclass(annotation, BaseModel) else annotation.__name__
    return str(annotation).replace("typing.", "")


def default_text(info: FieldInfo) -> str:
    """The default as TOML would write it; a computed one says how it is computed."""
    if info.default_factory is not None:
        factory = info.default_factory
        if factory in (list, tuple, set):
            return "`[]`"
        if factory is dict:
            return "`{}`"
        if getattr(factory, "__name__", "") == "<lambda>":  # a literal made fresh per instance
            return value_text(factory())  # type: ignore[call-arg]
        doc = inspect.getdoc(factory) or ""
        return "computed: " + (doc.split("\n\n")[0].replace("\n", " ") or getattr(factory, "__name__", "?"))
    if info.default is PydanticUndefined:
        return "required"
    return value_text(info.default)


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, BaseModel):
        value = value.model_dump()
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return repr(value)


def value_text(value: Any) -> str:
    """A default value as the reader would write it in the TOML file."""
    return "unset" if value is None else f"`{toml_value(value)}`"


def field_comments(model: type[BaseModel]) -> dict[str, str]:
    """The ``#`` comment lines written right above each field in the model's source: the settings
    explain themselves there, and the reference reads them rather than copying them."""
    try:
        source = textwrap.dedent(inspect.getsource(model))
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    found: dict[str, str] = {}
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            above: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#"):
                above.insert(0, lines[row].strip().lstrip("#").strip())
                row -= 1
            if above:
                found[node.target.id] = " ".join(above)
    return found


def own_doc(model: type[BaseModel]) -> str:
    """The model's own docstring, one line (not one inherited from ``BaseModel``)."""
    doc = model.__dict__.get("__doc__") or ""
    return " ".join(inspect.cleandoc(doc).split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def walk(table: Table) -> Iterator[tuple[str, type[BaseModel], str]]:
    """The table and its sub-tables (a field holding a model): (TOML name, model, about)."""
    yield table.name, table.model, table.about
    nested = dict(table.nested)
    for name, info in table.model.model_fields.items():
        model = _submodel(info.annotation)
        if model is None:
            continue
        origin = typing.get_origin(info.annotation)
        if name in nested:
            sub = nested[name]
        elif origin is list:
            sub = f"{table.name}.{name}[]"
        elif origin is dict:
            sub = f"{table.name}.{name}.NAME"
        else:
            sub = f"{table.name}.{name}"
        yield from walk(Table(sub, model, own_doc(model)))


def table_reference(tables: list[Table]) -> str:
    out: list[str] = []
    for name, model, about in (part for table in tables for part in walk(table)):
        comments = field_comments(model)
        out += [f"#### `[{name}]`", ""]
        doc = about or own_doc(model)
        if doc:
            out += [doc.replace("\n", " "), ""]
        out += ["| key | type | default | meaning |", "|---|---|---|---|"]
        for key, info in model.model_fields.items():
            meaning = info.description or comments.get(key, "")
            out.append(
                f"| `{key}` | `{_cell(type_name(info.annotation))}` | {_cell(default_text(info))}"
                f" | {_cell(meaning)} |"
            )
        out.append("")
    return "\n".join(out)


def config_reference() -> str:
    """Every table and key: the core's, the adapters', the rule systems'."""
    return "\n".join(
        [
            "### The core",
            "",
            table_reference(core_tables()),
            "### Platforms",
            "",
            table_reference(adapter_tables()),
            "### Rule systems",
            "",
            table_reference(system_tables()),
        ]
    )


# --- message catalogues ---------------------------------------------------------------------------

LANGUAGES = ("en", "cs", "ru")


def catalogues() -> list[tuple[str, Any]]:
    """Every module-level ``NAME = Catalogue(...)`` in gateway/, plugins/ and adapters/, found in the
    source (so a new catalogue appears without being listed) and imported: (``module.NAME``, it)."""
    import importlib

    from gateway.core.i18n import Catalogue

    root = DOCS_ROOT
    found = []
    for package in ("gateway", "plugins", "adapters"):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if (
                    isinstance(node, ast.Assign)
                    and isinstance(node.value, ast.Call)
                    and isinstance(node.value.func, ast.Name)
                    and node.value.func.id == "Catalogue"
                    and isinstance(node.targets[0], ast.Name)
                ):
                    module = ".".join(path.relative_to(root).with_suffix("").parts)
                    value = getattr(importlib.import_module(module), node.targets[0].id)
                    if isinstance(value, Catalogue):
                        found.append((f"{module}.{node.targets[0].id}", value))
    return found


def catalogue_coverage() -> str:
    """A table: each catalogue, its English keys, and how many of them each other language has."""
    rows = ["| catalogue | English keys | čeština | русский |", "|---|---|---|---|"]
    for name, catalogue in catalogues():
        english = set(catalogue.messages[catalogue.fallback])
        cells = []
        for locale in LANGUAGES[1:]:
            table = catalogue.messages.get(locale)
            if table is None:
                cells.append("—")
                continue
            have = len(english & {k for k, v in table.items() if v})
            cells.append(
                f"{have}/{len(english)}" + ("" if have == len(english) else " (English for the rest)")
            )
        rows.append(f"| `{name}` | {len(english)} | {' | '.join(cells)} |")
    return "\n".join(rows) + "\n"
