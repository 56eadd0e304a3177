"""Every ``Prepared`` statement in the code base compiles for both engines, as it is executed there.

On SQLite a prepared statement runs on the driver with SQL text compiled by ``Prepared``; on
PostgreSQL it goes through ``connection.execute``, which compiles it again with the parameters' names
as column keys. A statement that only one path accepts (D11: a bind parameter named like a column in
an UPDATE) broke Second Life fan-out on PostgreSQL while every SQLite test passed. This test needs no
database: it finds the statements by importing every module and compiles each for each dialect.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.dialects.postgresql import asyncpg
from sqlalchemy.dialects.sqlite import aiosqlite
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.dml import Insert

from gateway.vault.prepared import Prepared

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("gateway", "adapters", "plugins")
# The drivers the vault runs on.
DIALECTS: dict[str, Dialect] = {"sqlite": aiosqlite.dialect(), "postgresql": asyncpg.dialect()}


def _modules() -> Iterator[str]:
    for package in PACKAGES:
        if not (ROOT / package / "__init__.py").exists():
            continue
        yield package
        for info in pkgutil.walk_packages([str(ROOT / package)], prefix=f"{package}."):
            if ".migrations" in info.name or info.name.endswith(("__main__", ".bench")):
                continue
            yield info.name


def _prepared() -> list[tuple[str, str, Prepared]]:
    """(where, dialect, statement) for every module-level Prepared, also inside per-dialect dicts."""
    found: list[tuple[str, str, Prepared]] = []
    for name in _modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if isinstance(value, Prepared):
                found += [(f"{name}.{attr}", d, value) for d in DIALECTS]
            elif isinstance(value, dict):
                for key, item in value.items():
                    if isinstance(item, Prepared) and key in DIALECTS:
                        found.append((f"{name}.{attr}[{key}]", key, item))
    # One statement can be bound to several names (re-exports): test it once per dialect.
    unique = {(id(p), d): (where, d, p) for where, d, p in found}
    return sorted(unique.values(), key=lambda t: (t[0], t[1]))


def _parameter_names(prepared: Prepared) -> frozenset[str]:
    """The names a caller passes: the columns of an insert, the bind parameters of anything else."""
    statement = prepared.statement
    if isinstance(statement, Insert):
        return frozenset(
            c.key for c in statement.table.columns if not (c.primary_key and c.autoincrement is True)
        )
    compiled = statement.compile(dialect=DIALECTS["sqlite"])
    return frozenset(name for name, bind in compiled.binds.items() if bind.required)


def _params() -> list[Any]:
    return [
        pytest.param(where, dialect, prepared, id=f"{where}-{dialect}")
        for where, dialect, prepared in STATEMENTS
    ]


STATEMENTS = _prepared()


def test_the_statements_are_found() -> None:
    names = {where for where, _, _ in STATEMENTS}
    assert "gateway.delivery.queue.FANOUT_DONE" in names
    assert "gateway.delivery.outbox.CLAIM" in names
    assert any(n.startswith("gateway.vault.repo._RECORD_MESSAGE[postgresql]") for n in names)


@pytest.mark.parametrize(("where", "dialect", "prepared"), _params())
def test_prepared_statement_compiles_as_executed(where: str, dialect: str, prepared: Prepared) -> None:
    keys = _parameter_names(prepared)
    engine_dialect = DIALECTS[dialect]
    # The Prepared path (SQLite's driver) ...
    compiled = prepared.compile(engine_dialect, keys)
    assert set(compiled.names) <= keys | set(compiled.constants), where
    # ... and what connection.execute compiles (PostgreSQL, and SQLite outside a unit).
    prepared.statement.compile(dialect=engine_dialect, column_keys=sorted(keys))
