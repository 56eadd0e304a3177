"""Where in-world objects can be reached: their HTTP-in URLs, kept in the vault's ``KeyValue`` table.

A registration lives under a *route*, which is also the outbox target its pushes are queued under:

- ``player-hud/<owner key>``: the avatar's Player HUD (an avatar wears one; a new one replaces it),
- ``st-hud/<owner key>``: a Storyteller's HUD (same rule),
- ``relay/<object key>``: one region relay (a region may have several; each is its own route).

HUD routes are keyed by the *wearer*, not the object, because an attachment gets a new object key
every time it is attached: the Storyteller-log lines queued while a Storyteller was logged off must
reach the HUD they attach tomorrow. A second index (scope ``secondlife:object``) maps an object key
to its route. A registration whose URL answered 404 carries ``dead_since``; the next registration of
that route clears it and wakes the rows waiting for it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, delete, func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.outbox import expedite
from gateway.vault import repo
from gateway.vault.models import KeyValue
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit, unit_of

PLATFORM = "secondlife"
SCOPE = "secondlife:route"
OBJECT_SCOPE = "secondlife:object"
ROLES = ("player-hud", "st-hud", "relay")

_KV = KeyValue.__table__  # type: ignore[attr-defined]
BY_PREFIX = Prepared(
    select(_KV.c.key, _KV.c.value).where(
        _KV.c.scope == SCOPE,
        func.substr(_KV.c.key, 1, func.length(bindparam("prefix"))) == bindparam("prefix"),
    )
)


@dataclass(frozen=True)
class Registration:
    route: str
    role: str
    url: str
    object: str
    owner: str
    owner_name: str
    object_name: str
    region: str
    registered_at: str
    dead_since: str | None = None

    @classmethod
    def from_value(cls, route: str, value: dict[str, Any]) -> Registration:
        fields = {k: value.get(k) for k in cls.__dataclass_fields__ if k != "route"}
        return cls(route=route, **fields)  # type: ignore[arg-type]

    def value(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("route")
        return data


def route_for(role: str, owner: str, object_key: str) -> str:
    return f"relay/{object_key}" if role == "relay" else f"{role}/{owner}"


async def get(session: AsyncSession, route: str) -> Registration | None:
    row = await session.get(KeyValue, (SCOPE, route))
    return Registration.from_value(route, row.value) if row is not None else None


async def route_of_object(session: AsyncSession, object_key: str) -> str | None:
    row = await session.get(KeyValue, (OBJECT_SCOPE, object_key))
    return str(row.value.get("route")) if row is not None else None


async def by_prefix(db: Unit | AsyncSession, prefix: str) -> list[Registration]:
    """Every registration whose route starts with ``prefix`` (``"st-hud/"``, ``"relay/"``)."""
    rows = await unit_of(db).all(BY_PREFIX, {"prefix": prefix})
    return [Registration.from_value(key, value) for key, value in rows]


async def register(session: AsyncSession, reg: Registration, now: datetime) -> list[str]:
    """Record ``reg`` (replacing the route's previous URL and object), in the caller's transaction.

    Returns the outbox targets whose waiting rows should be retried now.
    """
    previous_route = await route_of_object(session, reg.object)
    if previous_route is not None and previous_route != reg.route:
        # The same object re-registers under another role: it no longer serves the old route.
        old = await session.get(KeyValue, (SCOPE, previous_route))
        if old is not None and old.value.get("object") == reg.object:
            await session.delete(old)
    # Created if absent and locked either way: two processes registering one route (a HUD's retry
    # reaching the other process) must not both insert it.
    values = {"scope": SCOPE, "key": reg.route, "value": reg.value(), "updated_at": now}
    row, created = await repo.locked_or_created(session, KeyValue, values)
    if not created:
        replaced = str(row.value.get("object") or "")
        if replaced and replaced != reg.object:
            await session.exec(  # type: ignore[call-overload]
                delete(KeyValue).where(col(KeyValue.scope) == OBJECT_SCOPE, col(KeyValue.key) == replaced)
            )
        row.value = reg.value()
        row.updated_at = now
        session.add(row)
    await repo.upsert(
        session,
        KeyValue,
        {"scope": OBJECT_SCOPE, "key": reg.object, "value": {"route": reg.route}, "updated_at": now},
    )
    targets = [reg.route, f"object/{reg.object}"]
    if reg.role == "player-hud":
        targets.append(f"avatar/{reg.owner}")
    # The object answers again: whatever waits for it is due now, not after its backoff.
    await expedite(unit_of(session), PLATFORM, targets, now)
    return targets


async def mark_dead(session: AsyncSession, route: str, url: str, now: datetime) -> bool:
    """Mark the route's URL dead, unless it has been re-registered with another URL meanwhile."""
    row = await session.get(KeyValue, (SCOPE, route))
    if row is None or row.value.get("url") != url or row.value.get("dead_since"):
        return False
    row.value = {**row.value, "dead_since": now.isoformat()}
    row.updated_at = now
    session.add(row)
    return True


async def forget(session: AsyncSession, reg: Registration) -> None:
    """Drop a registration that has been dead too long (its object is gone)."""
    row = await session.get(KeyValue, (SCOPE, reg.route))
    if row is not None and row.value.get("object") == reg.object:
        await session.delete(row)
    await session.exec(  # type: ignore[call-overload]
        delete(KeyValue).where(col(KeyValue.scope) == OBJECT_SCOPE, col(KeyValue.key) == reg.object)
    )
