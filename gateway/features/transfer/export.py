"""``gateway export characters``: every character (of one system, with ``--system``) with its owner,
sheet, pools, biography and portrait, and history, read from one snapshot of the vault and written
character by character.

The snapshot: on SQLite a deferred transaction (a WAL reader: it takes no write lock, so a running
gateway goes on writing meanwhile); on PostgreSQL a read-only REPEATABLE READ transaction. History
rows are streamed from the database to the output, so a character with a million rolls is never one
Python object.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, TextIO, TypeVar

from pydantic import BaseModel
from sqlalchemy import Table, inspect, select
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import col

from gateway import __version__
from gateway.features.transfer import profile
from gateway.features.transfer.format import (
    FOOTER,
    FORMAT,
    VERSION,
    AuditDoc,
    CharacterHead,
    Header,
    IdentityDoc,
    OwnerDoc,
    PoolDoc,
    RollDoc,
    SourceDoc,
    StlogDoc,
    head_json,
    header_json,
)
from gateway.vault.engine import Vault
from gateway.vault.models import Audit, Character, IdentityLink, Person, Pool, RollLog, StlogEntry

M = TypeVar("M", bound=BaseModel)
STREAM_ROWS = 1000  # history rows fetched at a time


def _table(model: Any) -> Table:
    table = inspect(model).local_table
    assert isinstance(table, Table)
    return table


CHARACTER, PERSON, IDENTITY, POOL = _table(Character), _table(Person), _table(IdentityLink), _table(Pool)
ROLL, STLOG, AUDIT = _table(RollLog), _table(StlogEntry), _table(Audit)


def _doc(model: type[M], row: Mapping[str, Any], **more: Any) -> M:
    """A file row from a table row: the columns the file has (ids and foreign keys stay behind)."""
    return model.model_validate({**{k: v for k, v in row.items() if k in model.model_fields}, **more})


@asynccontextmanager
async def snapshot(vault: Vault) -> AsyncIterator[AsyncConnection]:
    """A read-only connection that sees the vault as it was at its first read, until it closes."""
    async with vault.engine.connect() as conn:
        if vault.dialect == "sqlite":
            # Before SQLAlchemy begins: the vault's begin hook would take the write lock (IMMEDIATE).
            driver = (await conn.get_raw_connection()).driver_connection
            driver.sqlite.execute("BEGIN")  # type: ignore[union-attr]
        else:
            conn = await conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        async with conn.begin():
            yield conn


class _People:
    """Owners and the identity key that stands for a person in history rows, read once per person."""

    def __init__(self, conn: AsyncConnection) -> None:
        self.conn = conn
        self._owners: dict[int, OwnerDoc] = {}
        self._keys: dict[int, str | None] = {}

    async def owner(self, person_id: int) -> OwnerDoc:
        if person_id not in self._owners:
            person = (await self.conn.execute(select(PERSON).where(PERSON.c.id == person_id))).one()
            links = await self.conn.execute(
                select(IDENTITY).where(IDENTITY.c.person_id == person_id).order_by(IDENTITY.c.key)
            )
            identities = [_doc(IdentityDoc, dict(link._mapping)) for link in links]
            self._owners[person_id] = OwnerDoc(
                display_name=person.display_name,
                locale=person.locale,
                created_at=person.created_at,
                identities=identities,
            )
            self._keys[person_id] = identities[0].key if identities else None
        return self._owners[person_id]

    async def key(self, person_id: int | None) -> str | None:
        if person_id is None:
            return None
        if person_id not in self._keys:
            first = await self.conn.execute(
                select(IDENTITY.c.key).where(IDENTITY.c.person_id == person_id).order_by(IDENTITY.c.key)
            )
            self._keys[person_id] = first.scalar()
        return self._keys[person_id]


async def _write_history(
    conn: AsyncConnection,
    out: TextIO,
    name: str,
    table: Table,
    character_id: int,
    build: Callable[[dict[str, Any]], Awaitable[BaseModel]],
) -> None:
    """``,"rolls":[...]``: one kind of history row of a character, oldest first (by id), streamed."""
    out.write(f',"{name}":[')
    query = select(table).where(table.c.character_id == character_id).order_by(table.c.id)
    result = await conn.stream(query.execution_options(yield_per=STREAM_ROWS))
    first = True
    async for row in result:
        out.write(("" if first else ",") + (await build(dict(row._mapping))).model_dump_json())
        first = False
    out.write("]")


async def export_characters(
    vault: Vault,
    out: TextIO,
    *,
    system: str | None,
    versions: dict[str, str | None],
    now: datetime,
    character_id: int | None = None,
) -> int:
    """Write the characters file to ``out``; the number of characters written. With
    ``character_id``, that one character alone (``char export``)."""
    async with snapshot(vault) as conn:
        where = [] if system is None else [col(Character.system) == system]
        if character_id is not None:
            where.append(col(Character.id) == character_id)
        systems = await conn.execute(select(CHARACTER.c.system).where(*where).distinct())
        source = SourceDoc(
            gateway=__version__, systems={name: versions.get(name) for name in sorted(systems.scalars())}
        )
        out.write(header_json(Header(format=FORMAT, version=VERSION, exported_at=now, source=source)))
        people = _People(conn)
        count = 0
        # The character rows themselves are fetched up front (sheets are small); their history
        # is what grows, and is streamed.
        characters = await conn.execute(
            select(CHARACTER, PERSON.c.active_character_id)
            .join(PERSON, PERSON.c.id == CHARACTER.c.owner_id)
            .where(*where)
            .order_by(CHARACTER.c.id)
        )
        for row in characters.all():
            out.write(",\n" if count else "")
            await _write_character(conn, out, people, dict(row._mapping))
            count += 1
        out.write(FOOTER)
    return count


async def _write_character(conn: AsyncConnection, out: TextIO, people: _People, row: dict[str, Any]) -> None:
    character_id = row["id"]
    pools = await conn.execute(select(POOL).where(POOL.c.character_id == character_id).order_by(POOL.c.name))
    head = CharacterHead(
        system=row["system"],
        name=row["name"],
        status=row["status"],
        active=row["active_character_id"] == character_id and row["retired_at"] is None,
        retired_at=row["retired_at"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        owner=await people.owner(row["owner_id"]),
        sheet=row["sheet"],
        pools=[PoolDoc(name=p.name, current=p.current, maximum=p.maximum) for p in pools],
        profile=await profile.read(conn, character_id),
    )

    async def roll(r: dict[str, Any]) -> RollDoc:
        return _doc(RollDoc, r)

    async def stlog(r: dict[str, Any]) -> StlogDoc:
        return _doc(StlogDoc, r, person=await people.key(r["person_id"]))

    async def audit(r: dict[str, Any]) -> AuditDoc:
        return _doc(AuditDoc, r)

    out.write(head_json(head))
    await _write_history(conn, out, "rolls", ROLL, character_id, roll)
    await _write_history(conn, out, "stlog", STLOG, character_id, stlog)
    await _write_history(conn, out, "audit", AUDIT, character_id, audit)
    out.write("}")
