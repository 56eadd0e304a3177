"""Statements compiled once per dialect, run on the unit of work's own driver connection.

Why: SQLAlchemy's per-execution machinery (statement cache look-up, execution context, result
wrapping, the async adapter's greenlet hops) costs tens of microseconds a statement, several times
the SQLite call itself, and a command runs four or five statements. SQLAlchemy still does the parts
it is good at: ``Prepared`` takes its SQL text and its type processors (JSON, UTC datetimes,
booleans) from SQLAlchemy's compiler, and only the execution is direct: on SQLite's sqlite3
connection (``gateway.vault.unit``) and on PostgreSQL's asyncpg connection (``gateway.vault.pg_inline``).
On other drivers the statement runs through SQLAlchemy as usual.

Inserts run no Python-side column defaults: pass every column you mean to set (``compile`` refuses a
statement whose table has such a default that the parameters leave out).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import inspect
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.sql import Executable
from sqlalchemy.sql.dml import Insert, UpdateBase
from sqlalchemy.types import TypeEngine

Processor = Callable[[Any], Any] | None
M = TypeVar("M")


@dataclass(frozen=True)
class Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters in the order the SQL's placeholders take them
    binds: tuple[Processor, ...]
    results: tuple[Processor, ...]

    constants: Mapping[str, Any]  # the values of literal binds (``status == "pending"``)
    # The result columns' types, in order, where the processors depend on what the server sends
    # (asyncpg: a float column's processor needs its type oid): see ``processors``.
    columns: tuple[TypeEngine[Any], ...] = ()

    def parameters(self, params: Mapping[str, Any]) -> list[Any]:
        if self.constants:
            params = {**self.constants, **params}
        return [
            params[name] if bind is None else bind(params[name])
            for name, bind in zip(self.names, self.binds, strict=True)
        ]

    def row(self, raw: Sequence[Any]) -> tuple[Any, ...]:
        return convert(raw, self.results)

    def processors(self, dialect: Dialect, types: Sequence[Any]) -> tuple[Processor, ...]:
        """The result processors for the columns the server described (``types``: one driver type
        code per column), as SQLAlchemy's cursor result picks them."""
        if not self.columns:
            return (None,) * len(types)  # a textual statement without declared columns: as sent
        if len(types) != len(self.columns):
            raise ValueError(f"{self.sql!r} returned {len(types)} columns, compiled for {len(self.columns)}")
        return tuple(
            column.dialect_impl(dialect).result_processor(dialect, code)
            for column, code in zip(self.columns, types, strict=True)
        )


def convert(raw: Sequence[Any], results: Sequence[Processor]) -> tuple[Any, ...]:
    pairs = zip(raw, results, strict=True)
    return tuple(value if proc is None or value is None else proc(value) for value, proc in pairs)


class Prepared:
    """A Core statement with its compiled forms cached per (dialect, parameter names)."""

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        # Keyed by driver too: the SQL text is the driver's paramstyle (asyncpg's $1, psycopg's %s).
        self._cache: dict[tuple[str, str, frozenset[str]], Compiled] = {}

    def compile(self, dialect: Dialect, keys: frozenset[str]) -> Compiled:
        key = (dialect.name, dialect.driver, keys)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._compile(dialect, keys)
        return found

    def _compile(self, dialect: Dialect, keys: frozenset[str]) -> Compiled:
        statement: Any = self.statement
        if isinstance(statement, Insert):
            columns = statement.table.columns
            missing = [c.key for c in columns if c.default is not None and c.key not in keys]
            if missing:
                raise ValueError(f"prepared insert without values for defaulted columns {missing}")
            unknown = sorted(keys - set(columns.keys()))
            if unknown:
                raise ValueError(f"prepared insert into {statement.table} with unknown columns {unknown}")
            compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
        elif isinstance(statement, UpdateBase):
            # As ``connection.execute`` compiles it (the PostgreSQL path): a parameter named like a
            # column belongs to the SET clause, and a bind parameter of that name is refused.
            compiled = statement.compile(dialect=dialect, column_keys=sorted(keys))
        else:
            compiled = statement.compile(dialect=dialect)
        names = tuple(compiled.positiontup or ())
        binds = tuple(
            compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names
        )
        constants = {}
        for name in names:
            bind = compiled.binds[name]
            if name not in keys and not bind.required:
                constants[name] = bind.effective_value
        results: tuple[Processor, ...] = ()
        result_types: tuple[TypeEngine[Any], ...] = ()
        if dialect.name == "sqlite":
            # SQLite's processors take no type code: converted with the statement's own types.
            if getattr(statement, "is_select", False):
                results = tuple(
                    column.type.dialect_impl(dialect).result_processor(dialect, None)
                    for column in statement.selected_columns
                )
        else:
            # The columns SQLAlchemy's own result would match to the cursor's, SELECT or RETURNING
            # (``_result_columns``: what ``CursorResult`` reads); their processors come once the
            # server has described the statement (``processors``).
            result_types = tuple(entry.type for entry in compiled._result_columns)
        return Compiled(
            sql=compiled.string,
            names=names,
            binds=binds,
            results=results,
            constants=constants,
            columns=result_types,
        )


def detached(model: type[M], values: Mapping[str, Any]) -> M:
    """An ORM instance for a row read outside the ORM, in the state the ORM gives a loaded object
    after its session closes: ``session.add`` re-attaches it without a query, and later attribute
    changes are tracked and flushed as an UPDATE."""
    manager = inspect(model).class_manager
    obj = manager.new_instance()
    obj.__dict__.update(values)
    make_transient_to_detached(obj)
    return obj
