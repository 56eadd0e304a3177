"""Characters whose name holds a text (``st search``), through the trigram index of migration 0007.

SQLite: the FTS5 table ``character_name_trigram`` (trigram tokenizer, external content, kept in step
by triggers) gives the ids of the names holding the trigrams side by side along the text (a MATCH of
each as a quoted string: ``%``, ``_`` and quotes are letters like the others), each candidate's
character row is read by its id, and ``instr`` keeps the names that hold the text itself. The MATCH
reads the index only; FTS5's LIKE reads each candidate's name (1.5 µs a name) and takes no ESCAPE.
``CROSS JOIN`` makes SQLite read the FTS table first: with a plain JOIN it walks the system's names
and asks the FTS table about each one. A text shorter than a trigram, or a vault migrated by a
SQLite without FTS5 (no table), takes the plain LIKE over the system's names, as before. The cost
is in the candidates, of every system: a text in thousands of names costs more than the walk over
the system's names in order, which stops at the limit.

PostgreSQL: a GIN ``gin_trgm_ops`` index (``ix_character_name_trgm``) serves the same LIKE, and the
planner chooses between it (a rare text), the ``(system, name_key)`` index in order (a text in many
names: it stops at the limit) and a scan (a 2-letter text). It can only choose if it sees the text:
with a parameter, after five runs of the statement PostgreSQL plans it once for any text, and walked
every name for ``vance``. So the values are written into the statement (``literal_execute``: quoted
by SQLAlchemy, after its statement cache).
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterable

from sqlalchemy import bindparam, literal, text
from sqlalchemy.engine import Engine
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault.models import Character

TRIGRAM_TABLE = "character_name_trigram"  # SQLite: the FTS5 table (migration 0007)
TRIGRAM_INDEX = "ix_character_name_trgm"  # PostgreSQL: the GIN index (migration 0007)
# The FTS5 table and the tables it keeps its index in (``content``: none, it is external).
SHADOWS = ("data", "idx", "docsize", "config", "content")
TRIGRAM_TABLES = frozenset({TRIGRAM_TABLE, *(f"{TRIGRAM_TABLE}_{shadow}" for shadow in SHADOWS)})
TRIGRAM = 3  # letters in a trigram: a shorter text has none to look up

_has_table: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()

MATCHED = 16  # trigrams at most in a MATCH: a few already leave few candidates, and instr decides
SQLITE_SEARCH = f"""SELECT character.* FROM {TRIGRAM_TABLE} CROSS JOIN character
ON character.id = {TRIGRAM_TABLE}.rowid
WHERE {TRIGRAM_TABLE} MATCH :trigrams AND instr(character.name_key, :text) > 0
AND character.system = :system AND character.retired_at IS NULL{{statuses}}
ORDER BY character.name_key LIMIT :limit"""


def is_index_object(name: str | None, type_: str) -> bool:
    """Whether a table or index is the trigram index, which no model describes (for autogenerate
    and ``gateway db copy``: the index is made by the migration, and kept by the database)."""
    return (type_ == "table" and name in TRIGRAM_TABLES) or (type_ == "index" and name == TRIGRAM_INDEX)


def trigram_query(text_: str) -> str:
    """An FTS5 query for names holding ``text_`` (3 letters or more) and maybe others: the trigrams
    side by side along it and its last, each a quoted string (one token each: ``detail=none`` has
    no phrases). Any name holding the text holds each of them."""
    starts = [*range(0, len(text_) - TRIGRAM + 1, TRIGRAM), len(text_) - TRIGRAM][:MATCHED]
    trigrams = dict.fromkeys(text_[i : i + TRIGRAM] for i in starts)
    return " AND ".join('"' + trigram.replace('"', '""') + '"' for trigram in trigrams)


async def sqlite_has_table(session: AsyncSession) -> bool:
    """Whether this SQLite vault has the FTS table (once per engine: only a migration adds it)."""
    engine = (await session.connection()).engine.sync_engine
    found = _has_table.get(engine)
    if found is None:
        query = text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :name")
        row = await session.exec(query, params={"name": TRIGRAM_TABLE})  # type: ignore[call-overload]
        found = _has_table[engine] = row.first() is not None
    return found


async def characters_holding(
    session: AsyncSession, system: str, text_: str, statuses: Iterable[str] | None, limit: int
) -> list[Character]:
    """The first ``limit`` characters of ``system`` by name whose ``name_key`` holds ``text_`` (a
    name key itself), of some ``statuses`` if given."""
    dialect = session.get_bind().dialect.name
    if dialect == "sqlite" and len(text_) >= TRIGRAM and await sqlite_has_table(session):
        where = "" if statuses is None else " AND character.status IN :statuses"
        statement = text(SQLITE_SEARCH.format(statuses=where)).bindparams(
            trigrams=trigram_query(text_), text=text_, system=system, limit=limit
        )
        if statuses is not None:
            statement = statement.bindparams(bindparam("statuses", list(statuses), expanding=True))
        found = await session.exec(select(Character).from_statement(statement))  # type: ignore[call-overload]
        return list(found.scalars().all())

    # PostgreSQL plans the statement for these values (see the module's docstring).
    inline = dialect == "postgresql"
    escaped = "%" + re.sub(r"[/%_]", r"/\g<0>", text_) + "%"  # what ``contains(autoescape=True)`` sends
    query = select(Character).where(
        col(Character.system) == literal(system, literal_execute=inline), col(Character.retired_at).is_(None)
    )
    if statuses is not None:
        query = query.where(col(Character.status).in_([literal(s, literal_execute=inline) for s in statuses]))
    query = query.where(col(Character.name_key).like(literal(escaped, literal_execute=inline), escape="/"))
    query = query.order_by(col(Character.name_key)).limit(literal(limit, literal_execute=inline))
    return list((await session.exec(query)).all())
