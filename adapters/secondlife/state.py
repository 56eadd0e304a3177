"""The structured fields a HUD draws its menus from: ``state`` (the wearer's sheet) and ``roster``.

These are read after the command's own transaction: the character from the core tables, its
traits, powers and pools from the rule system's ``SheetSummary`` (the adapter knows no rules), so a
HUD never has to parse reply text to know whether it shows CharGen or Gameplay.
``state`` is small on purpose (it shares a 2048-byte body with the replies):

    {"mode": "none" | "chargen" | "gameplay", "st": bool, "chars": ["Mira", ...],
     "char": "Mira", "status": "creation" | "approved", "system": "nightcap",
     "traits": {"physical": 3, ...}, "powers": [["Veil", "adept", "spirit"], ...],
     "pools": {"willpower": [cur, max], "essence": [cur, max], "damage": [taken, levels]}}
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.secondlife.render import cut_bytes
from gateway import Services, SheetSummary
from gateway.roles import is_storyteller
from gateway.vault.models import Character, IdentityLink, Person

LABEL_BYTES = 24
ROSTER_PAGE = 9  # + Prev, Next, Back = 12 dialog buttons
CHARS_LISTED = 11  # the Player HUD's "Switch Character" dialog: 11 names + Back
# "Unlocked" is everyone still in CharGen: editing (creation) or waiting for a Storyteller (submitted).
STATUS_FILTERS: dict[str, tuple[str, ...] | None] = {
    "unlocked": ("creation", "submitted"),
    "approved": ("approved",),
    "all": None,
}


def _wire(summary: SheetSummary) -> dict[str, Any]:
    """The summary in the HUD's wire shape (the LSL scripts read it by these keys)."""
    return {
        "traits": {t.key: t.rating for t in summary.traits},
        "powers": [[p.name, p.tier, p.trait] for p in summary.powers],
        "pools": {p.key: [p.current, p.max] for p in summary.pools},
    }


async def hud_state(
    session: AsyncSession, services: Services, identity_key: str, owner: str | None, system: str
) -> dict[str, Any]:
    link = await session.get(IdentityLink, identity_key)
    person = await session.get(Person, link.person_id) if link is not None else None
    known = None if person is None or person.id is None else (person.id, person.storyteller)
    state: dict[str, Any] = {"mode": "none", "st": await is_storyteller(session, identity_key, owner, known)}
    if person is None:
        return state
    owned = await session.exec(
        select(Character.name)
        .where(col(Character.owner_id) == person.id, col(Character.system) == system)
        .order_by(col(Character.id))
        .limit(CHARS_LISTED)
    )
    state["chars"] = list(owned.all())
    if person.active_character_id is None:
        return state
    character = await session.get(Character, person.active_character_id)
    if character is None:
        return state
    summary = await services.plugins.load_summary(session, character, person.locale)
    state.update(
        mode="gameplay" if character.status == "approved" else "chargen",
        char=character.name,
        status=character.status,
        system=character.system,
        **_wire(summary),
    )
    return state


def label(number: int, name: str) -> str:
    """A dialog button label: ``"3. Mira Vance"``, at most 24 UTF-8 bytes (the number keeps it unique)."""
    return cut_bytes(f"{number}. {name}", LABEL_BYTES).rstrip()


async def roster(
    session: AsyncSession, system: str, statuses: tuple[str, ...] | None, query: str, page: int
) -> dict[str, Any]:
    """One page of character names for the ST HUD's Sheets menu, with ready-made button labels."""
    conditions = [col(Character.system) == system]
    if statuses:
        conditions.append(col(Character.status).in_(statuses))
    q = " ".join(query.split()).casefold()[:60]
    if q:
        escaped = q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        conditions.append(col(Character.name_key).like(f"%{escaped}%", escape="\\"))
    total = (await session.exec(select(func.count()).select_from(Character).where(*conditions))).one()
    pages = max(1, -(-int(total) // ROSTER_PAGE))
    page = min(max(0, page), pages - 1)
    found = await session.exec(
        select(Character.name, Character.status)
        .where(*conditions)
        .order_by(col(Character.name_key))
        .offset(page * ROSTER_PAGE)
        .limit(ROSTER_PAGE)
    )
    page_rows = list(found.all())
    names = [name for name, _ in page_rows]
    first = page * ROSTER_PAGE + 1
    return {
        "names": names,
        "labels": [label(first + i, n) for i, n in enumerate(names)],
        "statuses": [status for _, status in page_rows],
        "page": page,
        "pages": pages,
        "total": int(total),
    }
