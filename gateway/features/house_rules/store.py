"""A channel's house rules in the vault (``house_rule`` rows): read once per command, written by
``house set`` / ``house reset``.

The read is one prepared statement on the unit's own connection (``gateway.vault.prepared``), and
the validated model is kept per distinct set of rows, so a roll in a channel with no house rules
costs one indexed look-up that finds nothing and no pydantic validation.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, cast

from pydantic import BaseModel
from sqlalchemy import Table, bindparam, inspect, select

from gateway.features.house_rules.declare import HouseRules, build
from gateway.vault.models import HouseRule
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit

_TABLE = cast(Table, inspect(HouseRule).local_table)
_READ = Prepared(
    select(_TABLE.c.name, _TABLE.c.value).where(
        _TABLE.c.channel_key == bindparam("channel"), _TABLE.c.system == bindparam("system")
    )
)
# (model, settings, rows) -> the validated switches. Channels share few distinct sets of rows. The
# key holds ids; the value keeps the model and settings themselves, so neither can be collected and
# its id reused by another object (a later gateway's settings) while the entry lives.
_BUILT: dict[tuple[int, int, tuple[tuple[str, Any], ...]], tuple[object, object, HouseRules]] = {}
_MAX_BUILT = 4096


def _hashable(value: Any) -> Any:
    return value if isinstance(value, bool | int | str | float | None) else repr(value)


def built(model: type[HouseRules], settings: BaseModel | None, rows: dict[str, Any]) -> HouseRules:
    key = (id(model), id(settings), tuple(sorted((n, _hashable(v)) for n, v in rows.items())))
    found = _BUILT.get(key)
    if found is not None and found[0] is model and found[1] is settings:
        return found[2]
    if len(_BUILT) >= _MAX_BUILT:
        _BUILT.clear()
    rules = build(model, settings, rows)
    _BUILT[key] = (model, settings, rules)
    return rules


async def stored(unit: Unit, channel_key: str, system: str) -> dict[str, Any]:
    """The switches set in this channel for ``system``: name -> value."""
    rows = await unit.all(_READ, {"channel": channel_key, "system": system})
    return {str(n): json.loads(v) for n, v in rows}


async def load(
    unit: Unit, model: type[HouseRules], settings: BaseModel | None, channel_key: str, system: str
) -> HouseRules:
    """The channel's switches for ``system``, validated (one read)."""
    return built(model, settings, await stored(unit, channel_key, system))


async def put(unit: Unit, channel_key: str, system: str, name: str, value: Any, now: datetime) -> None:
    value = json.dumps(value)
    row = await unit.session.get(HouseRule, (channel_key, system, name))
    if row is None:
        unit.session.add(
            HouseRule(channel_key=channel_key, system=system, name=name, value=value, updated_at=now)
        )
    else:
        row.value, row.updated_at = value, now
        unit.session.add(row)
    await unit.session.flush()


async def remove(unit: Unit, channel_key: str, system: str, name: str) -> None:
    row = await unit.session.get(HouseRule, (channel_key, system, name))
    if row is not None:
        await unit.session.delete(row)
        await unit.session.flush()


async def for_channel(
    unit: Unit,
    system: Any,
    validated: dict[str, Any],
    channel_key: str,
    read: dict[str, Any] | None = None,
) -> HouseRules | None:
    """What the router hands a command as ``ctx.house``: the channel's switches for ``system``
    (a ``RuleSystem``), or None when it declares none. ``read``: the rows as the sender's query
    brought them (``Sender.take_house_rules``), else they are read here."""
    model = system.house_rules
    if model is None:
        return None
    if read is None:
        return await load(unit, model, validated.get(system.name), channel_key, system.name)
    return built(model, validated.get(system.name), read)
