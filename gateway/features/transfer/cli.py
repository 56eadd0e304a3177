"""``gateway export characters`` and ``gateway import characters``: a chronicle's characters (sheets,
pools, biographies and portraits, rolls, Storyteller-log entries, audit rows) moved between
deployments as one versioned JSON file (see the package's docstring).

Refusals are one line each on standard error, and then nothing was written: exit status 2 for what
the command was given (a file, a system name), 1 for a vault that cannot be used or read.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from argparse import Namespace
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TextIO

import orjson
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError, OperationalError, ProgrammingError, SQLAlchemyError

from gateway.core.errors import one_line
from gateway.core.plugins import Plugins, build_plugin_manager
from gateway.core.settings import Settings
from gateway.core.spec import RuleSystem
from gateway.features import profiles
from gateway.features.transfer import profile
from gateway.features.transfer.export import export_characters
from gateway.features.transfer.format import ExportDoc, error_lines, load, summary_lines
from gateway.features.transfer.importer import (
    Owners,
    file_problems,
    known_identities,
    vault_problems,
    write_characters,
)
from gateway.vault.engine import Vault
from gateway.vault.models import utcnow


class Refused(Exception):
    """Nothing done; ``problems`` says why, one line each. ``status``: 2 for what the command was
    given (a file, a system name), 1 for a vault that cannot be used."""

    def __init__(self, problems: list[str], status: int = 2) -> None:
        super().__init__(problems[0] if problems else "refused")
        self.problems = problems
        self.status = status


def run_cli(args: Namespace, settings: Settings) -> int:
    plugins = Plugins(build_plugin_manager(settings.plugins.block))
    try:
        if args.verb == "export":
            return _export(args, settings, plugins)
        try:
            limit = profiles.portrait_kib(settings.section("web"))
        except ValueError as exc:
            raise Refused([str(exc)]) from None
        counts = asyncio.run(import_file(Path(args.file), _vault(settings), plugins.systems(), limit))
    except Refused as refused:
        for line in summary_lines(refused.problems):
            print(line, file=sys.stderr)
        return refused.status
    print(f"imported {counts[0]} characters with {counts[1]} rolls from {args.file}")
    return 0


def _vault(settings: Settings) -> Vault:
    try:
        return Vault(settings.vault.url, busy_timeout_ms=settings.vault.busy_timeout_ms)
    except ValueError as exc:  # an in-memory SQLite URL
        raise Refused([f"cannot use the vault: {exc}"], status=1) from None


def system_versions(plugins: Plugins) -> dict[str, str | None]:
    """Each installed rule system's plugin version (its distribution's), None when not installed
    from one."""
    pm = plugins.pm
    versions = {id(plugin): str(dist.version) for plugin, dist in pm.list_plugin_distinfo()}
    out: dict[str, str | None] = {}
    for impl in pm.hook.gateway_register_rule_systems.get_hookimpls():
        found: list[RuleSystem] = []
        impl.function(register=found.append)
        out.update({system.name: versions.get(id(impl.plugin)) for system in found})
    return out


def _export(args: Namespace, settings: Settings, plugins: Plugins) -> int:
    systems = plugins.systems()
    system = None if args.system is None else args.system.casefold()
    if system is not None and system not in systems:
        raise Refused(
            [f"no rule system {args.system[:40]!r} is installed (installed: {', '.join(sorted(systems))})"]
        )
    versions = system_versions(plugins)

    async def run(out: TextIO) -> int:
        vault = _vault(settings)
        try:
            return await export_characters(vault, out, system=system, versions=versions, now=utcnow())
        except (SQLAlchemyError, OSError) as exc:
            raise Refused([f"cannot read the vault: {_reason(exc)}"], status=1) from None
        except ValidationError as exc:  # a row the format cannot carry (an empty identity key)
            raise Refused([f"cannot export: {error_lines(exc)[0]}"], status=1) from None
        finally:
            await vault.dispose()

    if args.out is None:
        count = asyncio.run(run(sys.stdout))
        sys.stdout.flush()
    else:
        count = _to_file(Path(args.out), run)
    print(f"exported {count} characters", file=sys.stderr)
    return 0


def _to_file(path: Path, run: Callable[[TextIO], Coroutine[Any, Any, int]]) -> int:
    """Write through a temporary file beside ``path``, renamed over it once complete: a failed
    export leaves no half file behind."""
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise Refused([f"cannot write {path}: {exc.strerror}"]) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            count = asyncio.run(run(out))
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return count


def read_file(path: Path, systems: dict[str, RuleSystem], portrait_kib: int) -> ExportDoc:
    """The file, parsed and checked on its own (nothing read from the vault yet); ``portrait_kib``
    is ``[web] portrait_kib``."""
    try:
        data = orjson.loads(path.read_bytes())
    except OSError as exc:
        raise Refused([f"cannot read {path}: {exc.strerror}"]) from None
    except orjson.JSONDecodeError as exc:
        raise Refused([f"{path}: not JSON: {exc}"]) from None
    doc, problems = load(data)
    if doc is None:
        raise Refused(problems)
    problems = file_problems(doc, systems) + [p.line() for p in profile.problems(doc, portrait_kib)]
    if problems:
        raise Refused(problems)
    return doc


async def import_file(
    path: Path, vault: Vault, systems: dict[str, RuleSystem], portrait_kib: int
) -> tuple[int, int]:
    """Import a characters file in one unit of work; (characters, rolls) imported."""
    try:
        doc = read_file(path, systems, portrait_kib)
        async with vault.unit() as unit:
            session = unit.session
            owners = Owners(await known_identities(session, doc))
            problems, refs = await vault_problems(session, doc, owners)
            if problems:
                raise Refused(problems)
            await write_characters(session, doc, owners, refs)
    except (OperationalError, ProgrammingError, OSError) as exc:
        # No such table, a vault that is not reachable: not the file's fault.
        raise Refused([f"nothing was written: cannot use the vault: {_reason(exc)}"], status=1) from None
    except DBAPIError as exc:  # a constraint, a value out of the column's range
        raise Refused([f"nothing was written: the vault refused the data ({_reason(exc)})"]) from None
    finally:
        await vault.dispose()
    return len(doc.characters), sum(len(c.rolls) for c in doc.characters)


def _reason(exc: Exception) -> str:
    """The database's own words, first line only (never the URL, which may hold a password), with
    a hint for a vault that lacks its tables."""
    orig = getattr(exc, "orig", None)
    text = one_line(orig if orig is not None else exc)[:200]
    missing = "no such table" in text or ("relation" in text and "does not exist" in text)
    return text + (" (run gateway db upgrade first)" if missing else "")
