"""Who sent a message, and where: the router's first read, in one query.

The router and the roll path need a handful of plain values (ids, keys, the Storyteller flag, the
locales and the channel's system); handlers that edit people or channels need ORM objects. ``Sender``
holds the row and builds each ORM object only on first use, attached to the unit so that its session
treats it as loaded (see ``prepared.detached``). The active character, which a character's roll needs
and most commands do not, is read on demand the same way (``Sender.active_character``).

The same query brings the channel's house rules for the rule system the channel plays (its own, or
the default one the router is given), as one JSON array: the first command of the unit takes them
(``Sender.take_house_rules``) instead of a statement of its own. On PostgreSQL every statement is a
round trip, about 0.1 ms of the gateway's CPU: a roll is one fewer of five.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

from sqlalchemy import String, Table, bindparam, func, inspect, select, update
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.functions import GenericFunction

from gateway.core.types import Channel, Identity
from gateway.vault import repo
from gateway.vault.models import ChannelRow, Character, HouseRule, IdentityLink, Person
from gateway.vault.prepared import Prepared, detached
from gateway.vault.unit import Unit


def _columns(model: type[Any]) -> tuple[tuple[str, ...], list[Any]]:
    """Attribute names and columns of every column a model maps, in one order."""
    props = inspect(model).column_attrs
    return tuple(p.key for p in props), [p.columns[0] for p in props]


class _Pairs(GenericFunction[str]):
    """``[[name, value], ...]`` of the rows aggregated, as JSON text (NULL for none)."""

    type = String()
    inherit_cache = True


@compiles(_Pairs, "postgresql")
def _pairs_postgresql(element: _Pairs, compiler: SQLCompiler, **kw: Any) -> str:
    return f"json_agg(json_build_array({compiler.process(element.clauses, **kw)}))::text"


@compiles(_Pairs)
def _pairs_sqlite(element: _Pairs, compiler: SQLCompiler, **kw: Any) -> str:
    return f"json_group_array(json_array({compiler.process(element.clauses, **kw)}))"


_MODELS = (IdentityLink, Person, ChannelRow)
_NAMES = tuple(_columns(model)[0] for model in _MODELS)
# local_table is typed FromClause (a mapper may map a select); a model's is a Table.
_IDENTITY, _PERSON, _CHANNEL = (cast(Table, inspect(model).local_table) for model in _MODELS)
_HOUSE = cast(Table, inspect(HouseRule).local_table)
# The house rules of the channel for the system it plays: a channel row without a system plays the
# default (``house`` runs only where a channel row exists, so with none there are no rules to read).
_HOUSE_PAIRS = (
    select(_Pairs(_HOUSE.c.name, _HOUSE.c.value))
    .where(
        _HOUSE.c.channel_key == _CHANNEL.c.key,
        _HOUSE.c.system == func.coalesce(_CHANNEL.c.system, bindparam("default_system", type_=String())),
    )
    .scalar_subquery()
)
# The ``[vault] owner`` identity's person, for the Storyteller check (``gateway.features.roles``):
# read here, it is no statement of its own on every command of a gateway with an owner.
_OWNER = _IDENTITY.alias("owner")
_OWNER_PERSON = (
    select(_OWNER.c.person_id).where(_OWNER.c.key == bindparam("owner", type_=String())).scalar_subquery()
)
_QUERY = Prepared(
    select(*(column for model in _MODELS for column in _columns(model)[1]), _HOUSE_PAIRS, _OWNER_PERSON)
    .join_from(_IDENTITY, _PERSON, _PERSON.c.id == _IDENTITY.c.person_id)
    .outerjoin(_CHANNEL, _CHANNEL.c.key == bindparam("channel"))
    .where(_IDENTITY.c.key == bindparam("key"))
)
_CHARACTER_NAMES, _CHARACTER_COLUMNS = _columns(Character)
_CHARACTER_QUERY = Prepared(
    select(*_CHARACTER_COLUMNS).where(cast(Table, inspect(Character).local_table).c.id == bindparam("id"))
)
# What a reader's language is decided from, for a read-only unit (no rows created on first sight).
_LOCALES = Prepared(
    select(
        select(_PERSON.c.locale)
        .join_from(_IDENTITY, _PERSON, _PERSON.c.id == _IDENTITY.c.person_id)
        .where(_IDENTITY.c.key == bindparam("key"))
        .scalar_subquery(),
        select(_CHANNEL.c.locale).where(_CHANNEL.c.key == bindparam("channel")).scalar_subquery(),
        select(_CHANNEL.c.system).where(_CHANNEL.c.key == bindparam("channel")).scalar_subquery(),
    )
)
_CHARACTER_TABLE = cast(Table, inspect(Character).local_table)
_NAMES_QUERY = Prepared(
    select(_CHARACTER_TABLE.c.name)
    .where(
        _CHARACTER_TABLE.c.owner_id == bindparam("person"),
        _CHARACTER_TABLE.c.system == bindparam("system"),
        _CHARACTER_TABLE.c.retired_at.is_(None),
    )
    .order_by(_CHARACTER_TABLE.c.id)
    .limit(bindparam("limit"))
)
_REFRESH_IDENTITY = Prepared(
    update(_IDENTITY)
    .where(_IDENTITY.c.key == bindparam("link_key"))
    .values(display_name=bindparam("new_name"), verified=bindparam("new_verified"))
)


@dataclass(frozen=True)
class SenderValues:
    """A sender's plain values, read inside its unit: safe to keep once the unit has ended."""

    identity_key: str
    person_id: int
    channel_key: str
    person_locale: str | None
    channel_locale: str | None
    channel_system: str | None


class Sender:
    """The sender's identity, person and the channel, as values and (on demand) as ORM objects.

    The plain accessors read the ORM object once one exists, so a handler's edit (``char use``,
    ``system``) is what later code in the same unit sees."""

    def __init__(
        self,
        unit: Unit,
        identity: dict[str, Any],
        person: dict[str, Any],
        channel: dict[str, Any],
        house: tuple[str, dict[str, Any]] | None = None,
        owner_person: tuple[int | None] | None = None,
    ) -> None:
        self._unit = unit
        self._house = house  # (system, name -> value) read with the sender, for the first command
        # (the owner's person id or None,) as read with the sender; None when it was not read.
        self.owner_person = owner_person
        self._values: dict[type[Any], dict[str, Any]] = {
            IdentityLink: identity,
            Person: person,
            ChannelRow: channel,
        }
        self._characters: dict[int, Character] = {}

    def _value(self, model: type[Any], attribute: str, name: str) -> Any:
        built = self.__dict__.get(attribute)
        return getattr(built, name) if built is not None else self._values[model][name]

    @property
    def identity_key(self) -> str:
        return str(self._values[IdentityLink]["key"])  # the primary key: never edited

    @property
    def channel_key(self) -> str:
        return str(self._values[ChannelRow]["key"])

    @property
    def person_id(self) -> int:
        return int(self._value(Person, "person", "id"))

    @property
    def storyteller(self) -> bool:
        return bool(self._value(Person, "person", "storyteller"))

    @property
    def person_locale(self) -> str | None:
        return self._value(Person, "person", "locale")  # type: ignore[no-any-return]

    @property
    def active_character_id(self) -> int | None:
        return self._value(Person, "person", "active_character_id")  # type: ignore[no-any-return]

    @property
    def channel_system(self) -> str | None:
        return self._value(ChannelRow, "channel", "system")  # type: ignore[no-any-return]

    @property
    def channel_locale(self) -> str | None:
        return self._value(ChannelRow, "channel", "locale")  # type: ignore[no-any-return]

    def take_house_rules(self, system: str) -> dict[str, Any] | None:
        """The channel's house rules for ``system`` (name -> value) as read with the sender, once:
        None when they were not read, were for another system, or were taken already (a later
        command of the unit, a macro's, reads them afresh: an earlier one may have changed them)."""
        house, self._house = self._house, None
        return house[1] if house is not None and house[0] == system else None

    def values(self) -> SenderValues:
        return SenderValues(
            self.identity_key,
            self.person_id,
            self.channel_key,
            self.person_locale,
            self.channel_locale,
            self.channel_system,
        )

    async def character_names(self, system: str, limit: int) -> list[str]:
        """The names of the sender's first ``limit`` characters in play of ``system``, oldest first."""
        params = {"person": self.person_id, "system": system, "limit": limit}
        rows = await self._unit.all(_NAMES_QUERY, params)
        return [str(name) for (name,) in rows]

    async def active_character(self, system: str | None) -> Character | None:
        """The sender's active character if it is a ``system`` one (None: of any system), else None;
        as ``session.get`` gives it, with one prepared read in place of the ORM's (see ``_load``)."""
        active = self.active_character_id
        if active is None:
            return None
        character = self._unit.loaded(Character, (active,)) or self._characters.get(active)
        if character is None:
            row = await self._unit.first(_CHARACTER_QUERY, {"id": active})
            if row is None:
                return None
            character = self._characters[active] = detached(
                Character, dict(zip(_CHARACTER_NAMES, row, strict=True))
            )
            self._unit.attach(character)
        return character if system is None or character.system == system else None

    def move_to(self, person: Person) -> None:
        """The sender's identity now belongs to ``person`` (``link`` merged two persons)."""
        assert person.id is not None
        self.__dict__["person"] = person
        self.identity.person_id = person.id

    @cached_property
    def identity(self) -> IdentityLink:
        return self._load(IdentityLink)

    @cached_property
    def person(self) -> Person:
        return self._load(Person)

    @cached_property
    def channel(self) -> ChannelRow:
        return self._load(ChannelRow)

    def _load(self, model: type[Any]) -> Any:
        values = self._values[model]
        # A handler's query may have loaded the same row already: the session keeps one object per row.
        known = self._unit.loaded(model, tuple(values[c.key] for c in inspect(model).primary_key))
        if known is not None:
            return known
        obj = detached(model, values)
        self._unit.attach(obj)
        return obj


def _values_of(obj: Any, names: tuple[str, ...]) -> dict[str, Any]:
    return {name: getattr(obj, name) for name in names}


async def resolve_sender(
    unit: Unit,
    identity: Identity,
    channel: Channel,
    default_system: str | None = None,
    owner: str | None = None,
) -> Sender:
    """The sender of a message, with the person and channel rows created on first sight (those are
    in the session already; ``Sender`` finds them there instead of building second copies). With
    ``default_system`` (what a channel without a system plays), the channel's house rules too; with
    ``owner`` (``[vault] owner``), that identity's person (``Sender.owner_person``)."""
    identity_names, person_names, channel_names = _NAMES
    params = {"key": identity.key, "channel": channel.key, "default_system": default_system, "owner": owner}
    row = await unit.first(_QUERY, params)
    if row is None:
        person, link = await repo.resolve_identity(unit.session, identity)
        row_channel = await repo.resolve_channel(unit.session, channel)
        return Sender(
            unit,
            _values_of(link, identity_names),
            _values_of(person, person_names),
            _values_of(row_channel, channel_names),
        )
    values: list[dict[str, Any]] = []
    at = 0
    for names in _NAMES:
        values.append(dict(zip(names, row[at : at + len(names)], strict=True)))
        at += len(names)
    link_values, person_values, channel_values = values
    house: tuple[str, dict[str, Any]] | None = None
    system = channel_values["system"] or default_system
    if default_system is not None and channel_values["key"] is not None and system is not None:
        pairs = row[at]
        found = json.loads(pairs) if isinstance(pairs, str) else pairs  # NULL: no rules
        house = (system, {str(name): json.loads(value) for name, value in found or ()})
    owner_person = None if owner is None else (None if row[at + 1] is None else int(row[at + 1]),)
    if link_values["display_name"] != identity.display_name or link_values["verified"] != identity.verified:
        # Keep the platform's current display name and verification on the identity row.
        link_values.update(display_name=identity.display_name, verified=identity.verified)
        await unit.execute(
            _REFRESH_IDENTITY,
            {"link_key": identity.key, "new_name": identity.display_name, "new_verified": identity.verified},
        )
    if channel_values["key"] is None:
        channel_values = _values_of(await repo.resolve_channel(unit.session, channel), channel_names)
    return Sender(unit, link_values, person_values, channel_values, house, owner_person)


async def read_locales(
    unit: Unit, identity: Identity, channel: Channel
) -> tuple[str | None, str | None, str | None]:
    """The person's language, the channel's and the channel's rule system, each None when unset
    or never seen; in one query that writes nothing (for ``Vault.read``)."""
    row = await unit.first(_LOCALES, {"key": identity.key, "channel": channel.key})
    assert row is not None  # a SELECT of three scalar subqueries has one row
    person, channel_locale, system = row
    return person, channel_locale, system
