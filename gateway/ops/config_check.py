"""``gateway config check``: a settings file's mistakes as one friendly line each.

A line reads ``FILE:LINE: key.path: what is wrong`` (``did you mean 'channels'?`` for a misspelt
key), instead of pydantic's traceback. The same lines are shown when ``gateway serve`` (or any other
command) starts with a bad config. Checked in order, stopping at the first stage that fails: TOML
syntax, the core sections, unknown top-level tables, each rule system's table, each adapter's table.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import sys
import tomllib
import types
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

Loc = tuple[str | int, ...]


class ConfigError(Exception):
    """The settings do not load; ``lines`` says why, one friendly line per mistake."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


@dataclass
class Report:
    """What ``check`` found: ``problems`` (empty when fine) and, when fine, ``summary`` lines."""

    label: str
    problems: list[str] = field(default_factory=list)
    summary: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


# --- where a key is in the file -------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_KEY = re.compile(rf"^\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _dotted(text: str) -> tuple[str, ...]:
    parts = re.findall(r"\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+)", text)
    return tuple(next(p for p in groups if p) if any(groups) else "" for groups in parts)


def key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line (1-based) of every table header and ``key =`` in TOML text, by key path. A light scan,
    not a parser (the file has already parsed): it skips multi-line strings, enough for messages."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    in_string: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        header = _HEADER.match(line)
        if header and "=" not in header.group(1):
            table = _dotted(header.group(1))
            lines.setdefault(table, number)
            continue
        key = _KEY.match(line)
        if key:
            lines.setdefault((*table, *_dotted(key.group(1))), number)
            rest = line[key.end() :]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
    return lines


def _paths(data: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield (*prefix, key)
            yield from _paths(value, (*prefix, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield (*prefix, index)
            yield from _paths(value, (*prefix, index))


def locate(raw: Mapping[str, Any], base: tuple[str, ...], loc: Loc) -> tuple[str | int, ...]:
    """The key path in the file of an error at ``loc`` of a model that read the table at ``base``.
    An adapter's model may see a sub-table (``[irc.libera]``): the first path under ``base`` that ends
    in ``loc`` wins; when none does (a key the adapter adds itself), ``base + loc``."""
    table: Any = raw
    for part in base:
        table = table.get(part, {}) if isinstance(table, dict) else {}
    if loc:
        for path in _paths(table):
            if path[-len(loc) :] == tuple(loc):
                return (*base, *path)
        # A missing key is not in the file: find its table, then add the key.
        for path in _paths(table):
            if path[-len(loc) + 1 :] == tuple(loc[:-1]) and len(loc) > 1:
                return (*base, *path, loc[-1])
    return (*base, *loc)


def _present(raw: Mapping[str, Any], path: Sequence[str | int]) -> bool:
    value: Any = raw
    for part in path:
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            return False
    return True


def _where(
    label: str,
    raw: Mapping[str, Any],
    lines: Mapping[tuple[str, ...], int],
    path: Sequence[str | int],
    *,
    missing: bool = False,
) -> str:
    """``FILE:LINE`` of ``path`` (of its table when ``missing``), or ``environment`` when only a
    ``GATEWAY_*`` variable sets it."""
    if not missing and not _present(raw, path):
        return "environment"
    line = _line_of(lines, path)
    return f"{label}:{line}" if line is not None else label


def config_errors() -> tuple[type[BaseException], ...]:
    """What a bad setting raises while the gateway is built (a vault URL: SQLAlchemy's own error,
    or its missing driver)."""
    from sqlalchemy.exc import ArgumentError

    return (ValidationError, tomllib.TOMLDecodeError, ValueError, ArgumentError, ImportError)


def _line_of(lines: Mapping[tuple[str, ...], int], path: Sequence[str | int]) -> int | None:
    keys = tuple(str(p) for p in path if not isinstance(p, int))
    while keys:
        if keys in lines:
            return lines[keys]
        keys = keys[:-1]
    return None


def _show(path: Sequence[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


# --- what the model expected ----------------------------------------------------------------------


def _submodel(annotation: Any) -> type[BaseModel] | None:
    """The model inside ``X``, ``X | None``, ``list[X]`` or ``dict[str, X]``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    origin = typing.get_origin(annotation)
    if origin is None:
        return None
    args = typing.get_args(annotation)
    if origin in (list, set, tuple, dict, typing.Union, types.UnionType) or isinstance(origin, type):
        for arg in args[1:] if origin is dict else args:
            found = _submodel(arg)
            if found is not None:
                return found
    return None


def fields_at(model: type[BaseModel] | None, loc: Loc) -> list[str]:
    """The keys the model accepts at the table that holds ``loc``'s last key."""
    for part in loc[:-1]:
        if model is None:
            return []
        if isinstance(part, int):
            continue
        info = model.model_fields.get(part)
        model = _submodel(info.annotation) if info is not None else None
    return list(model.model_fields) if model is not None else []


def _models_named(name: str, module_prefix: str) -> list[type[BaseModel]]:
    """Loaded models called ``name`` in modules under ``module_prefix`` (an adapter's validation error
    names its model but does not carry it)."""
    found: list[type[BaseModel]] = []
    todo: list[type[BaseModel]] = [BaseModel]
    while todo:
        cls = todo.pop()
        for sub in cls.__subclasses__():
            todo.append(sub)
            if sub.__name__ == name and sub.__module__.startswith(module_prefix):
                found.append(sub)
    return found


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _what(error: Mapping[str, Any], choices: Sequence[str]) -> str:
    kind = error["type"]
    key = error["loc"][-1] if error["loc"] else ""
    if kind == "extra_forbidden":
        return "unknown key" + (did_you_mean(str(key), choices) if isinstance(key, str) else "")
    if kind == "missing":
        return "required, but missing"
    message = str(error["msg"]).removeprefix("Value error, ")
    if "input" in error and not isinstance(error["input"], dict | list) and kind != "value_error":
        message += f" (got {error['input']!r})"
    return message


def explain(
    exc: ValidationError,
    *,
    label: str,
    raw: Mapping[str, Any],
    lines: Mapping[tuple[str, ...], int],
    base: tuple[str, ...] = (),
    model: type[BaseModel] | None = None,
) -> list[str]:
    """One line per error of ``exc``, raised by ``model`` validating the table at ``base``."""
    out = []
    for error in exc.errors():
        loc: Loc = tuple(error["loc"])
        path = locate(raw, base, loc)
        where = _where(label, raw, lines, path, missing=error["type"] == "missing")
        key = _show(path) or (f"[{_show(base)}]" if base else "(file)")
        out.append(f"{where}: {key}: {_what(error, fields_at(model, loc))}")
    return out


def toml_syntax(exc: tomllib.TOMLDecodeError, label: str) -> str:
    """``FILE:LINE:COLUMN: TOML syntax: ...`` (Python 3.11's tomllib puts the place in the message)."""
    text = str(exc)
    place = re.search(r"\s*\(at line (\d+), column (\d+)\)$", text)
    if place:
        return f"{label}:{place.group(1)}:{place.group(2)}: TOML syntax: {text[: place.start()]}"
    return f"{label}: TOML syntax: {text.removesuffix(' (at end of document)')}"


# --- the whole check ------------------------------------------------------------------------------


def _config_path(path: str | Path | None) -> str | None:
    found = path if path is not None else os.environ.get("GATEWAY_CONFIG")
    return str(found) if found is not None else None


def check(path: str | Path | None = None) -> Report:
    """Check the settings from ``path`` (or ``GATEWAY_CONFIG``) and the environment, as serve reads them.

    Every stage runs even when an earlier one found mistakes (a bad core value does not hide a
    misspelt adapter key). Only the plugins the settings name are imported: a rule system or adapter
    with a table (or ``GATEWAY_<NAME>__*`` variables), all of them when a table is nobody's."""
    from gateway.core.settings import Settings, load_settings

    config = _config_path(path)
    label = config or "(no config file)"
    report = Report(label)
    raw: dict[str, Any] = {}
    lines: dict[tuple[str, ...], int] = {}
    if config is not None:
        try:
            text = Path(config).read_text(encoding="utf-8")
        except OSError as exc:
            report.problems.append(f"{label}: cannot read it: {exc.strerror or exc}")
            return report
        except UnicodeDecodeError:
            report.problems.append(f"{label}: not UTF-8 text (TOML files are UTF-8)")
            return report
        try:
            raw = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            report.problems.append(toml_syntax(exc, label))
            return report
        lines = key_lines(text)
    settings: Settings | None
    try:
        settings = load_settings(config)
    except ValidationError as exc:
        report.problems.extend(explain(exc, label=label, raw=raw, lines=lines, model=Settings))
        settings = _without_bad_sections(raw, exc)
    if settings is None:  # the environment itself is wrong: only the tables can still be named
        block = raw.get("plugins", {}).get("block", []) if isinstance(raw.get("plugins"), dict) else []
        plugins = _plugins([str(b) for b in block] if isinstance(block, list) else [], None)
        report.problems.extend(_unknown_tables(raw, plugins, label, raw, lines))
        return report
    plugins = _plugins(settings.plugins.block, _needed(settings))
    report.problems.extend(_unknown_tables(settings.model_extra or {}, plugins, label, raw, lines))
    for name, system in plugins.registry.systems.items():
        if system.settings_model is None:
            continue
        try:
            system.settings_model.model_validate(settings.section(name))
        except ValidationError as exc:
            report.problems.extend(
                explain(exc, label=label, raw=raw, lines=lines, base=(name,), model=system.settings_model)
            )
    report.problems.extend(_check_default_system(settings, label, raw, lines))
    problems, built = _check_adapters(settings, plugins, label, raw, lines)
    report.problems.extend(problems)
    if not report.problems:
        report.summary = _summary(settings, plugins, built)
    return report


def _without_bad_sections(raw: Mapping[str, Any], exc: ValidationError) -> Any:
    """Settings from the file with the core sections that failed left at their defaults, so that the
    later stages still run; None when that fails too (a bad ``GATEWAY_*`` variable)."""
    from gateway.core.settings import settings_from

    bad = {str(error["loc"][0]) for error in exc.errors() if error["loc"]}
    try:
        return settings_from({key: value for key, value in raw.items() if key not in bad})
    except ValidationError:
        return None


def _entry_point_names() -> set[str]:
    from gateway.core.entry_points import group
    from gateway.ops.cli_plugins import PLUGIN_GROUP

    return {ep.name for ep in group(PLUGIN_GROUP)}


def _needed(settings: Any) -> set[str] | None:
    """The plugins to import: those whose name is a table of the settings; None (all) when some
    table is no plugin's name (a misspelling, or a plugin whose platform has another name)."""
    tables = set(settings.model_extra or {})
    names = _entry_point_names()
    return tables if tables <= names else None


class _Loaded:
    """The plugins ``check`` imported (``Plugins``), or nothing at all when no table needs one."""

    def __init__(self, plugins: Any = None) -> None:
        self.plugins = plugins
        self.registry = plugins.registry if plugins is not None else types.SimpleNamespace(systems={})
        self.adapter_specs = plugins.adapter_specs if plugins is not None else []


def _plugins(block: Sequence[str], needed: set[str] | None) -> Any:
    if needed is not None and not needed:
        return _Loaded()
    from gateway.core.plugins import Plugins, build_plugin_manager, core_plugins
    from gateway.ops.logging import configure_logging

    configure_logging("auto", "warning")  # the plugins' own start-up lines are not this report's
    others = [] if needed is None else sorted(_entry_point_names() - needed)
    # The core's own commands too, as serve has them (a rule system's table may name them).
    return _Loaded(Plugins(build_plugin_manager([*block, *others], extra=core_plugins())))


def _check_default_system(
    settings: Any, label: str, raw: Mapping[str, Any], lines: Mapping[tuple[str, ...], int]
) -> list[str]:
    """``[gateway] default_system`` names an installed rule system (by its entry point, not imported)."""
    name = settings.gateway.default_system
    names = _entry_point_names()
    if name in names:
        return []
    where = _where(label, raw, lines, ("gateway", "default_system"))
    problem = f"no plugin named {name!r} is installed{did_you_mean(name, names)}"
    return [f"{where}: gateway.default_system: {problem}"]


def _unknown_tables(
    tables: Iterable[str],
    plugins: Any,
    label: str,
    raw: Mapping[str, Any],
    lines: Mapping[tuple[str, ...], int],
) -> list[str]:
    """A top-level table that is no core section, rule system or adapter is a misspelling."""
    from gateway.core.settings import Settings

    platforms = [spec.platform for spec in plugins.adapter_specs]
    known = [*Settings.model_fields, *plugins.registry.systems, *platforms]
    problems = []
    for name in tables:
        if name not in known:
            where = _where(label, raw, lines, (name,))
            problem = f"unknown table (not a core section, rule system or adapter){did_you_mean(name, known)}"
            problems.append(f"{where}: [{name}]: {problem}")
    return problems


def _check_adapters(
    settings: Any, plugins: Any, label: str, raw: Mapping[str, Any], lines: Mapping[tuple[str, ...], int]
) -> tuple[list[str], list[str]]:
    """Build each adapter as serve would (its constructor validates its table; nothing connects)."""
    from gateway.core.dice import dice_from_settings

    problems: list[str] = []
    built: list[str] = []
    try:
        dice = dice_from_settings(settings.dice.seed, settings.dice.script)
    except ValueError as exc:
        problems.append(f"{_where(label, raw, lines, ('dice', 'script'))}: dice.script: {exc}")
    vault = _check_vault_url(settings, label, raw, lines)
    if vault is not None or problems:
        return [*problems, *([vault] if vault else [])], built
    if plugins.plugins is None or not plugins.adapter_specs:
        return problems, built
    from gateway.core.services import Services
    from gateway.core.system_settings import SystemSettingsError

    # A bad rule-system table already has its lines above; the adapters are still checked.
    with contextlib.suppress(SystemSettingsError):
        plugins.plugins.configure(settings)
    try:
        services = Services(settings, plugins.plugins, dice=dice)
    except config_errors() as exc:
        return [_vault_problem(str(exc), label, raw, lines)], built
    for spec in plugins.adapter_specs:
        section = settings.section(spec.platform)
        try:
            if spec.build(services, section) is not None:
                built.append(spec.platform)
        except ValidationError as exc:
            module = spec.build.__module__
            package = module if hasattr(sys.modules.get(module), "__path__") else module.rpartition(".")[0]
            models = _models_named(exc.title, package or module)
            model = models[0] if len(models) == 1 else None
            problems.extend(
                explain(exc, label=label, raw=raw, lines=lines, base=(spec.platform,), model=model)
            )
        except (ValueError, TypeError, KeyError) as exc:
            problems.append(f"{_where(label, raw, lines, (spec.platform,))}: [{spec.platform}]: {exc}")
    return problems, built


def _vault_problem(
    error: str, label: str, raw: Mapping[str, Any], lines: Mapping[tuple[str, ...], int]
) -> str:
    problem = error.splitlines()[0]
    example = "sqlite+aiosqlite:///vault.db or postgresql+asyncpg://USER@HOST/DB"
    return f"{_where(label, raw, lines, ('vault', 'url'))}: vault.url: {problem} (e.g. {example})"


# sqlite+aiosqlite:///PATH and postgresql+asyncpg://[USER[:PASSWORD]@]HOST[:PORT]/DB[?...]
_SHIPPED_VAULT = re.compile(
    r"^(?:sqlite\+aiosqlite:///[^?\s]*|postgresql\+asyncpg://(?:[^@/\s]+@)?[^:/@\s]+(?::\d{1,5})?/[^?/\s]+)"
    r"(?:\?\S*)?$"
)


def _check_vault_url(
    settings: Any, label: str, raw: Mapping[str, Any], lines: Mapping[tuple[str, ...], int]
) -> str | None:
    """The vault URL parses and names a dialect SQLAlchemy has (nothing connects). The two shipped
    forms are recognised without importing SQLAlchemy (a third of a second): anything else is
    parsed by it."""
    if _SHIPPED_VAULT.match(settings.vault.url):
        return None
    from sqlalchemy.engine import make_url

    try:
        make_url(settings.vault.url).get_dialect()
    except config_errors() as exc:
        return _vault_problem(str(exc), label, raw, lines)
    return None


def _summary(settings: Any, plugins: Any, adapters: Sequence[str]) -> list[str]:
    http = settings.http
    systems = sorted(plugins.registry.systems)
    checked = sorted({*systems, *(spec.platform for spec in plugins.adapter_specs)})
    return [
        f"vault: {settings.vault.url}",
        f"http: {f'{http.host}:{http.port}' if http.enabled else 'off'}",
        f"adapters: {', '.join(sorted(adapters)) or 'no tables'}",
        f"rule systems: {', '.join(systems) or 'no tables'} (default {settings.gateway.default_system})",
        f"plugins: {len(_entry_point_names())} installed (gateway plugins lists them);"
        f" tables checked: {', '.join(checked) or 'none'}",
    ]


def raise_for(path: str | Path | None) -> None:
    """Raise ``ConfigError`` with the friendly lines when the settings at ``path`` do not load."""
    report = check(path)
    if not report.ok:
        raise ConfigError(report.problems)
