"""Who is a Storyteller: the one rule the router, the Second Life HUDs, fan-out and delivery share.

The ``[vault] owner`` identity is one, and so is every identity linked to the owner's person; so is
every person with ``Person.storyteller`` set (the role belongs to the person, on every platform).
A platform's own Storyteller role (a Discord role) is the router's to add: it comes with a message.
"""

from __future__ import annotations

from sqlalchemy import bindparam, inspect, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.vault import repo
from gateway.vault.models import IdentityLink, Person
from gateway.vault.prepared import Prepared
from gateway.vault.unit import Unit, unit_of

_LINK = inspect(IdentityLink).local_table
_PERSON = inspect(Person).local_table
_PERSON_ROLE = Prepared(
    select(_PERSON.c.id, _PERSON.c.storyteller)
    .select_from(_LINK.join(_PERSON, _PERSON.c.id == _LINK.c.person_id))
    .where(_LINK.c.key == bindparam("key"))
)


async def is_storyteller(
    db: Unit | AsyncSession,
    identity_key: str,
    owner: str | None,
    person: tuple[int, bool] | None = None,
    owner_person: tuple[int | None] | None = None,
) -> bool:
    """Whether ``identity_key`` holds the Storyteller role. ``person`` is its (person id, storyteller
    flag) when the caller has them already (the router does); else they are read, in one query.
    ``owner_person``, ``(the owner's person id or None,)``, likewise (read with the sender)."""
    if owner and identity_key == owner:
        return True
    unit = unit_of(db)
    if person is None:
        row = await unit.first(_PERSON_ROLE, {"key": identity_key})
        if row is None:
            return False  # never seen: no person, no role
        person = (int(row[0]), bool(row[1]))
    person_id, flagged = person
    if flagged or not owner:
        return flagged
    # The owner's role follows the owner's person to every identity linked to it.
    if owner_person is None:
        owner_person = (await repo.person_of(unit, owner),)
    return owner_person[0] == person_id
