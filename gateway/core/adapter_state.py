"""An adapter's own durable key-value state: small JSON documents (a sync token, a registered URL, a
disabled webhook) under a scope of its own in the vault's ``kv`` table.

Every method runs in the caller's unit of work when given one (``db=unit`` or ``db=session``, so the
state commits or rolls back with the caller's other writes), or in a unit of its own in the bound
vault. Writes are single upserts: two processes sharing a PostgreSQL vault never race on an insert.
The statements are ``Prepared`` (``gateway.vault.prepared``): a Second Life fan-out reads its routes
on the delivery path.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from gateway.vault import Vault
from gateway.vault.models import KeyValue, utcnow
from gateway.vault.prepared import Prepared
from gateway.vault.repo import Db, within

__all__ = ["AdapterState", "Db", "within"]

_KV = KeyValue.__table__  # type: ignore[attr-defined]
# No bind parameter is named like a column: a DELETE or UPDATE would take it for its SET clause.
_ROW = (_KV.c.scope == bindparam("in_scope"), _KV.c.key == bindparam("at_key"))
_IN_SCOPE = _KV.c.scope == bindparam("in_scope")
GET = Prepared(select(_KV.c.value).where(*_ROW))
LOCK = Prepared(select(_KV.c.value).where(*_ROW).with_for_update())
DELETE = Prepared(delete(_KV).where(*_ROW))
# A prefix compared as a substring, not with LIKE: keys hold ``_`` and ``%`` freely.
ITEMS = Prepared(
    select(_KV.c.key, _KV.c.value)
    .where(_IN_SCOPE, func.substr(_KV.c.key, 1, func.length(bindparam("prefix"))) == bindparam("prefix"))
    .order_by(_KV.c.key)
)
PRUNE = Prepared(delete(_KV).where(_IN_SCOPE, _KV.c.updated_at < bindparam("before")))


def _upsert(insert: Any) -> Prepared:
    stmt = insert(_KV)
    return Prepared(
        stmt.on_conflict_do_update(
            index_elements=[_KV.c.scope, _KV.c.key],
            set_={"value": stmt.excluded.value, "updated_at": stmt.excluded.updated_at},
        )
    )


PUT = {"sqlite": _upsert(sqlite_insert), "postgresql": _upsert(postgresql_insert)}
PUT_MISSING = {
    "sqlite": Prepared(sqlite_insert(_KV).on_conflict_do_nothing()),
    "postgresql": Prepared(postgresql_insert(_KV).on_conflict_do_nothing()),
}


class AdapterState:
    """The keys of one scope (``"matrix:main"``, ``"discord.disabled"``, ``"secondlife:route"``).

    ``vault`` may be None for a state used only inside callers' units (every call passes ``db``)."""

    def __init__(self, vault: Vault | None, scope: str, *, clock: Callable[[], datetime] = utcnow) -> None:
        self.vault = vault
        self.scope = scope
        self.clock = clock

    def _db(self, db: Db | None) -> Db:
        if db is not None:
            return db
        if self.vault is None:
            raise TypeError(f"state {self.scope!r} has no vault of its own: pass db=")
        return self.vault

    async def get(self, key: str, *, db: Db | None = None) -> dict[str, Any] | None:
        async with within(self._db(db)) as unit:
            row = await unit.first(GET, {"in_scope": self.scope, "at_key": key})
        return dict(row[0]) if row is not None else None

    async def put(
        self, key: str, value: dict[str, Any], *, db: Db | None = None, now: datetime | None = None
    ) -> None:
        """Write the key's value whole, inserting or replacing it in one statement."""
        values = {"scope": self.scope, "key": key, "value": dict(value), "updated_at": now or self.clock()}
        async with within(self._db(db)) as unit:
            await unit.execute(PUT[unit.dialect], values)

    async def locked(
        self, key: str, value: dict[str, Any], *, db: Db | None = None, now: datetime | None = None
    ) -> tuple[dict[str, Any], bool]:
        """The key's value, stored as ``value`` first if absent, locked until the caller's unit ends
        (PostgreSQL; SQLite serialises writers); and whether this call stored it. Two processes
        creating one key at once both succeed: the second waits for the first and reads its value."""
        values = {"scope": self.scope, "key": key, "value": dict(value), "updated_at": now or self.clock()}
        async with within(self._db(db)) as unit:
            created = await unit.execute(PUT_MISSING[unit.dialect], values) == 1
            row = await unit.first(LOCK, {"in_scope": self.scope, "at_key": key})
        assert row is not None, "a row inserted or found in this transaction"
        return dict(row[0]), created

    async def put_missing(self, key: str, value: dict[str, Any], *, db: Db | None = None) -> dict[str, Any]:
        """Store ``value`` unless the key has one; the stored value (another process's, if it won)."""
        stored, _ = await self.locked(key, value, db=db)
        return stored

    async def delete(self, key: str, *, db: Db | None = None) -> bool:
        """Remove the key; whether it was there."""
        async with within(self._db(db)) as unit:
            return await unit.execute(DELETE, {"in_scope": self.scope, "at_key": key}) > 0

    async def items(self, prefix: str = "", *, db: Db | None = None) -> dict[str, dict[str, Any]]:
        """Every key starting with ``prefix`` and its value, in key order."""
        async with within(self._db(db)) as unit:
            rows = await unit.all(ITEMS, {"in_scope": self.scope, "prefix": prefix})
        return {key: dict(value) for key, value in rows}

    async def with_prefix(self, prefix: str, *, db: Db | None = None) -> dict[str, dict[str, Any]]:
        """Like ``items``, with the prefix removed from the keys."""
        found = await self.items(prefix, db=db)
        return {key[len(prefix) :]: value for key, value in found.items()}

    async def prune(self, before: datetime, *, db: Db | None = None) -> int:
        """Remove the keys last written before ``before``; how many went."""
        async with within(self._db(db)) as unit:
            return await unit.execute(PRUNE, {"in_scope": self.scope, "before": before})
