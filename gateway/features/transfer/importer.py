"""``gateway import characters FILE``: a characters file into this vault, all of it or nothing.

First the file alone (``file_problems``: its rule systems are installed, each sheet passes its
system's ``sheet_model``, no name or roll id twice), then against the vault in the unit that writes
it (``vault_problems``: no character of that system and name, no roll id already logged, an owner's
identities not split between two people here). Any problem refuses the whole file.

Owners: an identity key the vault knows maps to its person (the owner's other identities are linked
to that person); an owner none of whose identities is known becomes a new person with all of them.
History rows get new database ids and point at the new character; their people are found by
identity key (none, when the vault does not know it). Roll public ids are kept, so ``verify ID``
answers here as it did there. A biography and portrait (``profile``) are checked by
``gateway.features.transfer.profile`` with the file, and written with their character.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Table, insert
from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.errors import UserError
from gateway.core.spec import RuleSystem
from gateway.features.characters import clean_name, name_key, retired_key
from gateway.features.transfer import profile
from gateway.features.transfer.export import AUDIT, CHARACTER, IDENTITY, ROLL, STLOG
from gateway.features.transfer.format import (
    CharacterDoc,
    ExportDoc,
    IdentityDoc,
    OwnerDoc,
    error_lines,
    label,
)
from gateway.vault.models import Character, IdentityLink, Person, Pool, utcnow

CHUNK = 500  # keys per IN (...) and rows per multi-row insert
IMPORT_ACTOR = "cli:import"


def file_problems(doc: ExportDoc, systems: dict[str, RuleSystem]) -> list[str]:
    """What is wrong with the file whatever the vault holds, one line each."""
    problems: list[str] = []
    names: dict[tuple[str, str], int] = {}
    roll_ids: dict[str, int] = {}
    installed = ", ".join(sorted(systems)) or "none"
    for index, character in enumerate(doc.characters):
        named = label(index, character.name)
        system = systems.get(character.system)
        if system is None:
            problems.append(
                f"{named}: rule system {character.system!r} is not installed (installed: {installed})"
            )
        else:
            problems += _sheet_problems(system, character, index)
        try:
            key = (character.system, name_key(clean_name(character.name)))
        except UserError as exc:
            problems.append(f"{named}: {exc}")
        else:
            # Retired characters leave their names free, here as in the vault.
            if character.retired_at is None and key in names:
                problems.append(f"{named}: the same system and name as characters[{names[key]}]")
            if character.retired_at is None:
                names.setdefault(key, index)
        pools = [pool.name for pool in character.pools]
        for name in sorted({n for n in pools if pools.count(n) > 1}):
            problems.append(f"{named}: pool {name!r} is listed twice")
        for roll in character.rolls:
            if roll.public_id in roll_ids:
                problems.append(f"{named}: roll #{roll.public_id} is listed twice in the file")
            roll_ids.setdefault(roll.public_id, index)
    return problems


def _sheet_problems(system: RuleSystem, character: CharacterDoc, index: int) -> list[str]:
    if system.sheet_model is None:
        return []
    try:
        system.sheet_model.model_validate(character.sheet)
    except ValidationError as exc:
        return error_lines(exc, f"{label(index, character.name)}.sheet")
    except Exception as exc:  # a plugin's own validator failing its own way: still one line
        return [f"{label(index, character.name)}.sheet: {type(exc).__name__}"]
    return []


def _chunks(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


async def _existing(session: AsyncSession, column: Any, values: Iterable[Any]) -> set[Any]:
    wanted = sorted(set(values))
    found: set[Any] = set()
    for chunk in _chunks(wanted):
        found.update((await session.exec(select(column).where(column.in_(chunk)))).all())
    return found


class Owners:
    """Who owns each character here: an existing person (by identity key) or a new one, decided for
    the whole file before anything is written. A new person's reference is negative until written."""

    def __init__(self, known: dict[str, int]) -> None:
        self.of_key = dict(known)  # identity key -> person id (or -n: the file's n-th new person)
        self.new: dict[int, OwnerDoc] = {}
        self.identities: dict[str, IdentityDoc] = {}  # every owner identity in the file, first seen

    def assign(self, owner: OwnerDoc) -> int | str:
        """The owner's person reference, or why there is none."""
        keys = [identity.key for identity in owner.identities]
        people = sorted({self.of_key[k] for k in keys if k in self.of_key})
        if len(people) > 1:
            shown = ", ".join(k for k in keys if k in self.of_key)
            return f"the owner's identities {shown} belong to different people (here or earlier in the file)"
        if people:
            ref = people[0]
        else:
            ref = -(len(self.new) + 1)
            self.new[ref] = owner
        for identity in owner.identities:
            self.of_key[identity.key] = ref
            self.identities.setdefault(identity.key, identity)
        return ref


async def vault_problems(
    session: AsyncSession, doc: ExportDoc, owners: Owners
) -> tuple[list[str], list[int]]:
    """What refuses the file in this vault, and each character's owner reference."""
    problems: list[str] = []
    keys = {(c.system, name_key(c.name)) for c in doc.characters if c.retired_at is None}
    taken: set[tuple[str, str]] = set()
    for system in sorted({system for system, _ in keys}):
        names = [key for s, key in keys if s == system]
        for chunk in _chunks(sorted(names)):
            found = await session.exec(
                select(CHARACTER.c.name_key).where(
                    CHARACTER.c.system == system, CHARACTER.c.name_key.in_(chunk)
                )
            )
            taken.update((system, key) for key in found.all())
    logged = await _existing(
        session, ROLL.c.public_id, (r.public_id for c in doc.characters for r in c.rolls)
    )
    refs: list[int] = []
    for index, character in enumerate(doc.characters):
        named = label(index, character.name)
        if character.retired_at is None and (character.system, name_key(character.name)) in taken:
            problems.append(f"{named}: this vault already has a {character.system} character called that")
        clashes = [r.public_id for r in character.rolls if r.public_id in logged]
        if clashes:
            more = f" and {len(clashes) - 3} more" if len(clashes) > 3 else ""
            ids = ", ".join(f"#{i}" for i in clashes[:3])
            problems.append(f"{named}: roll {ids}{more} already in this vault's roll log")
        ref = owners.assign(character.owner)
        if isinstance(ref, str):
            problems.append(f"{named}: {ref}")
            ref = 0
        refs.append(ref)
    return problems, refs


async def known_identities(session: AsyncSession, doc: ExportDoc) -> dict[str, int]:
    """The vault's person of every identity key the file names (owners, rollers, actors)."""
    keys: set[str] = set()
    for c in doc.characters:
        keys.update(i.key for i in c.owner.identities)
        keys.update(r.identity_key for r in c.rolls)
        keys.update(s.person for s in c.stlog if s.person is not None)
        keys.update(a.actor_key for a in c.audit)
    found: dict[str, int] = {}
    for chunk in _chunks(sorted(keys)):
        rows = await session.exec(
            select(IDENTITY.c.key, IDENTITY.c.person_id).where(IDENTITY.c.key.in_(chunk))
        )
        found.update({key: int(person) for key, person in rows.all()})
    return found


async def write_characters(session: AsyncSession, doc: ExportDoc, owners: Owners, refs: list[int]) -> None:
    """Everything in the file, in the caller's unit (checked already)."""
    people = await _write_people(session, owners)
    person_of = {key: people.get(ref, ref) for key, ref in owners.of_key.items()}
    activated: set[int] = set()
    note = "imported from " + doc.exported_at.isoformat().replace("+00:00", "Z")
    for character, ref in zip(doc.characters, refs, strict=True):
        owner_id = people.get(ref, ref)
        row = Character(
            owner_id=owner_id,
            system=character.system,
            name=clean_name(character.name),
            name_key=name_key(character.name),
            status=character.status,
            sheet=character.sheet,
            created_at=character.created_at,
            updated_at=character.updated_at,
        )
        session.add(row)
        await session.flush()
        assert row.id is not None
        if character.retired_at is not None:
            row.retired_at = character.retired_at
            row.name_key = retired_key(row.name_key, row.id)
            session.add(row)
        session.add_all(
            Pool(character_id=row.id, name=p.name, current=p.current, maximum=p.maximum)
            for p in character.pools
        )
        audited: list[dict[str, Any]] = []
        if character.profile is not None:
            flavour, audited = profile.imported(row.id, character.profile, utcnow())
            session.add(flavour)
        if character.active and character.retired_at is None and owner_id not in activated:
            # The owner's active character, if the owner is new here or has none active yet.
            person = await session.get(Person, owner_id)
            if person is not None and (ref < 0 or person.active_character_id is None):
                person.active_character_id = row.id
                session.add(person)
                activated.add(owner_id)
        await _write_history(session, character, row.id, person_of, [{"new_value": note}, *audited])


async def _write_history(
    session: AsyncSession,
    character: CharacterDoc,
    character_id: int,
    person_of: dict[str, int],
    imports: list[dict[str, Any]],
) -> None:
    """The character's rolls, Storyteller-log entries and audit rows, and the audit rows of the
    import (``imports``: each one's ``new_value``, and its ``field_name`` if any)."""
    mine = {"character_id": character_id}
    rolls = [{**r.model_dump(), **mine, "person_id": person_of.get(r.identity_key)} for r in character.rolls]
    await _insert(session, ROLL, rolls)
    stlog = [
        {**s.model_dump(exclude={"person"}), **mine, "person_id": person_of.get(s.person or "")}
        for s in character.stlog
    ]
    await _insert(session, STLOG, stlog)
    audit = [{**a.model_dump(), **mine, "actor_id": person_of.get(a.actor_key)} for a in character.audit]
    now = utcnow()
    by = {"actor_key": IMPORT_ACTOR, "actor_id": None, "action": "character.import", "created_at": now}
    audit += [{**mine, **by, "field_name": None, "old_value": None, **row} for row in imports]
    await _insert(session, AUDIT, audit)


async def _write_people(session: AsyncSession, owners: Owners) -> dict[int, int]:
    """New people with their identities, and identities new to people already here; ref -> id."""
    ids: dict[int, int] = {}
    for ref, owner in owners.new.items():
        person = Person(display_name=owner.display_name, locale=owner.locale, created_at=owner.created_at)
        session.add(person)
        await session.flush()
        assert person.id is not None
        ids[ref] = person.id
    known = await _existing(session, IDENTITY.c.key, owners.identities)
    for key, identity in owners.identities.items():
        if key not in known:
            ref = owners.of_key[key]
            session.add(IdentityLink(**identity.model_dump(), person_id=ids.get(ref, ref)))
    return ids


async def _insert(session: AsyncSession, table: Table, rows: list[dict[str, Any]]) -> None:
    await session.flush()  # the rows these point at (people, the character) go first
    connection = await session.connection()
    for chunk in _chunks(rows):
        await connection.execute(insert(table), list(chunk))
