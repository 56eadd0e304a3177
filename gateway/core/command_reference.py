"""The chat command reference of the docs, generated from the command registry: ``reference(system,
locale)`` is Markdown with every command of a rule system (``None``: the commands every channel has),
its usage, summary, who may run it, its other names and, when it declares typed parameters
(``Command.params``), a table of them. The docs' pages call it from cog blocks
(``docs/players/*.md``), so the page cannot drift from the code: ``cog --check`` fails in the suite.

Pure and deterministic: the same registry gives the same text, commands sorted by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from gateway.core.params import Param
from gateway.core.spec import Command, Role

if TYPE_CHECKING:
    from gateway.core.registry import Registry

# The reference's own words, per locale (the command texts come from the commands themselves).
LABELS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "usage": "Usage",
        "who": "Who",
        "aliases": "Also",
        "parameter": "parameter",
        "kind": "kind",
        "required": "required",
        "description": "description",
        "yes": "yes",
        "no": "no",
        "none": "No commands.",
    },
    "cs": {
        "usage": "Použití",
        "who": "Kdo",
        "aliases": "Také",
        "parameter": "parametr",
        "kind": "druh",
        "required": "povinný",
        "description": "popis",
        "yes": "ano",
        "no": "ne",
        "none": "Žádné příkazy.",
    },
    "ru": {
        "usage": "Как писать",
        "who": "Кто",
        "aliases": "Также",
        "parameter": "параметр",
        "kind": "вид",
        "required": "обязателен",
        "description": "описание",
        "yes": "да",
        "no": "нет",
        "none": "Команд нет.",
    },
}

ROLES: Mapping[str, Mapping[Role, str]] = {
    "en": {"anyone": "anyone", "player": "players", "storyteller": "Storytellers"},
    "cs": {"anyone": "kdokoli", "player": "hráči", "storyteller": "Vypravěči"},
    "ru": {"anyone": "все", "player": "игроки", "storyteller": "Рассказчики"},
}

KINDS: Mapping[str, Mapping[str, str]] = {
    "en": {
        "pool": "dice pool",
        "trait": "trait",
        "integer": "whole number",
        "modifier": "+N or -N",
        "choice": "one of",
        "character": "character",
        "own_character": "your character",
        "person": "person",
        "power": "power",
        "house_rule": "house rule",
        "word": "word",
        "text": "text",
        "flag": "word",
        "notation": "dice notation",
    },
    "cs": {
        "pool": "kostky",
        "trait": "vlastnost",
        "integer": "celé číslo",
        "modifier": "+N nebo -N",
        "choice": "jedno z",
        "character": "postava",
        "own_character": "vaše postava",
        "person": "osoba",
        "power": "schopnost",
        "house_rule": "domácí pravidlo",
        "word": "slovo",
        "text": "text",
        "flag": "slovo",
        "notation": "zápis kostek",
    },
    "ru": {
        "pool": "пул кубиков",
        "trait": "атрибут",
        "integer": "целое число",
        "modifier": "+N или -N",
        "choice": "одно из",
        "character": "персонаж",
        "own_character": "ваш персонаж",
        "person": "человек",
        "power": "способность",
        "house_rule": "домашнее правило",
        "word": "слово",
        "text": "текст",
        "flag": "слово",
        "notation": "запись кубиков",
    },
}

_SPECIAL = re.compile(r"([\\`*_\[\]<>|])")


def _text(value: str) -> str:
    """``value`` as literal Markdown text (a summary may hold ``*`` or ``_``)."""
    return _SPECIAL.sub(r"\\\1", value)


def _code(value: str, *, cell: bool = True) -> str:
    """``value`` as an inline code span; in a table ``cell`` its pipes are escaped."""
    ticks = "``" if "`" in value else "`"
    return f"{ticks}{value.replace('|', chr(92) + '|') if cell else value}{ticks}"


def commands_of(registry: Registry, system: str | None) -> list[Command]:
    """The commands registered for ``system`` (``None``: the core's), each once, by name."""
    found = {c.name: c for (owner, _), c in registry.commands.items() if owner == system}
    return [found[name] for name in sorted(found)]


def _kind(param: Param, locale: str) -> str:
    words = KINDS.get(locale, KINDS["en"])
    kind = words[param.kind]
    if param.kind == "choice":
        kind += " " + ", ".join(_code(c) for c in param.choices)
    elif param.kind == "flag":
        kind = _code(str(param.keyword))
    if param.minimum is not None or param.maximum is not None:
        low = "" if param.minimum is None else str(param.minimum)
        high = "" if param.maximum is None else str(param.maximum)
        kind += f" {low}–{high}"
    if param.keyword and param.kind != "flag":
        kind += f", {_code(param.keyword + ' …')}"
    if param.many:
        kind += " …"
    return kind


def _params_table(params: Iterable[Param], locale: str) -> list[str]:
    labels = LABELS.get(locale, LABELS["en"])
    rows = [
        f"| {labels['parameter']} | {labels['kind']} | {labels['required']} | {labels['description']} |",
        "|---|---|---|---|",
    ]
    for param in params:
        required = labels["yes"] if param.required else labels["no"]
        rows.append(
            f"| {_code(param.label_in(locale))} | {_kind(param, locale)} | {required}"
            f" | {_text(param.description_in(locale))} |"
        )
    return rows


def command_entry(command: Command, locale: str) -> list[str]:
    """One command's part of the reference: a heading, its summary, usage, who, aliases, parameters."""
    labels = LABELS.get(locale, LABELS["en"])
    roles = ROLES.get(locale, ROLES["en"])
    lines = [f"### `{command.name}`", "", _text(command.summary_in(locale)), ""]
    usage = command.usage_in(locale) or command.usage or command.name
    lines.append(f"- **{labels['usage']}:** {_code(usage, cell=False)}")
    lines.append(f"- **{labels['who']}:** {roles[command.role]}")
    if command.aliases:
        lines.append(
            f"- **{labels['aliases']}:** " + ", ".join(_code(a, cell=False) for a in command.aliases)
        )
    if command.params:
        lines += ["", *_params_table(command.params, locale)]
    return [*lines, ""]


def reference(system: str | None, locale: str = "en", *, registry: Registry | None = None) -> str:
    """Markdown of every command of ``system`` (``None``: the core's) in ``locale``; the installed
    plugins' registry unless ``registry`` is given."""
    registry = registry if registry is not None else installed_registry()
    if system is not None and system not in registry.systems:
        raise LookupError(f"no rule system {system!r} is installed")
    lines: list[str] = []
    for command in commands_of(registry, system):
        lines += command_entry(command, locale)
    if not lines:
        lines = [LABELS.get(locale, LABELS["en"])["none"], ""]
    return "\n".join(lines).rstrip("\n") + "\n"


@lru_cache(maxsize=1)
def installed_registry() -> Registry:
    """The registry a gateway with the default settings builds: the core's commands and the installed
    plugins' (entry points). Building it opens no vault and starts nothing."""
    import tempfile

    from gateway.core.app import Gateway
    from gateway.core.settings import settings_from

    # The engine is made lazily and never connects here: the file is not created.
    url = f"sqlite+aiosqlite:///{Path(tempfile.gettempdir()) / 'nightcap-command-reference.db'}"
    return Gateway(settings_from({"vault": {"url": url}})).plugins.registry
