"""Where in-world objects can be reached: their HTTP-in URLs, kept in the adapter's state
(``gateway.core.adapter_state``).

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

from gateway.core.adapter_state import AdapterState, Db, within
from gateway.delivery.queue import Unit, expedite

PLATFORM = "secondlife"
SCOPE = "secondlife:route"
OBJECT_SCOPE = "secondlife:object"
ROLES = ("player-hud", "st-hud", "relay")

# Used only inside the caller's unit of work (every call passes it).
ROUTES = AdapterState(None, SCOPE)
OBJECTS = AdapterState(None, OBJECT_SCOPE)


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


async def get(db: Db, route: str) -> Registration | None:
    value = await ROUTES.get(route, db=db)
    return Registration.from_value(route, value) if value is not None else None


async def route_of_object(db: Db, object_key: str) -> str | None:
    value = await OBJECTS.get(object_key, db=db)
    return str(value.get("route")) if value is not None else None


async def by_prefix(db: Db, prefix: str) -> list[Registration]:
    """Every registration whose route starts with ``prefix`` (``"st-hud/"``, ``"relay/"``)."""
    found = await ROUTES.items(prefix, db=db)
    return [Registration.from_value(route, value) for route, value in found.items()]


async def register(db: Db, reg: Registration, now: datetime) -> list[str]:
    """Record ``reg`` (replacing the route's previous URL and object), in the caller's transaction.

    Returns the outbox targets whose waiting rows should be retried now.
    """
    async with within(db) as unit:
        return await _register(unit, reg, now)


async def _register(unit: Unit, reg: Registration, now: datetime) -> list[str]:
    previous_route = await route_of_object(unit, reg.object)
    if previous_route is not None and previous_route != reg.route:
        # The same object re-registers under another role: it no longer serves the old route.
        old = await ROUTES.get(previous_route, db=unit)
        if old is not None and old.get("object") == reg.object:
            await ROUTES.delete(previous_route, db=unit)
    # Created if absent and locked either way: two processes registering one route (a HUD's retry
    # reaching the other process) must not both insert it.
    stored, created = await ROUTES.locked(reg.route, reg.value(), db=unit, now=now)
    if not created:
        replaced = str(stored.get("object") or "")
        if replaced and replaced != reg.object:
            await OBJECTS.delete(replaced, db=unit)
        await ROUTES.put(reg.route, reg.value(), db=unit, now=now)
    await OBJECTS.put(reg.object, {"route": reg.route}, db=unit, now=now)
    targets = [reg.route, f"object/{reg.object}"]
    if reg.role == "player-hud":
        targets.append(f"avatar/{reg.owner}")
    # The object answers again: whatever waits for it is due now, not after its backoff.
    await expedite(unit, PLATFORM, targets, now)
    return targets


async def mark_dead(db: Db, route: str, url: str, now: datetime) -> bool:
    """Mark the route's URL dead, unless it has been re-registered with another URL meanwhile."""
    value = await ROUTES.get(route, db=db)
    if value is None or value.get("url") != url or value.get("dead_since"):
        return False
    await ROUTES.put(route, {**value, "dead_since": now.isoformat()}, db=db, now=now)
    return True


async def forget(db: Db, reg: Registration) -> None:
    """Drop a registration that has been dead too long (its object is gone)."""
    value = await ROUTES.get(reg.route, db=db)
    if value is not None and value.get("object") == reg.object:
        await ROUTES.delete(reg.route, db=db)
    await OBJECTS.delete(reg.object, db=db)
