"""The structured fields a HUD draws its menus from: ``state`` (the wearer's sheet) and ``roster``.

With a command, ``state`` is read inside the command's own unit of work (``hud_state_in``, the
router's callback) from the sender the router resolved; alone, in a unit of its own. The character
comes from the core tables, its traits, powers and pools from the rule system's ``SheetSummary``
(the adapter knows no rules), so a HUD never has to parse reply text to know whether it shows
CharGen or Gameplay.
``state`` is small on purpose (it shares a 2048-byte body with the replies):

    {"mode": "none" | "chargen" | "gameplay", "st": bool, "chars": ["Mira", ...],
     "char": "Mira", "status": "creation" | "approved", "system": "nightcap",
     "traits": {"physical": 3, ...}, "powers": [["Veil", "adept", "spirit"], ...],
     "pools": {"willpower": [cur, max], "essence": [cur, max], "damage": [taken, levels]}}
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.secondlife.render import cut_bytes
from gateway import AdapterServices, Reading, SheetSummary
from gateway.features.characters import player_characters, roster_page
from gateway.features.roles import is_storyteller

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
    session: AsyncSession, services: AdapterServices, identity_key: str, owner: str | None, system: str
) -> dict[str, Any]:
    player = await player_characters(session, identity_key, system, CHARS_LISTED)
    known = None if player is None else (player.person_id, player.storyteller_flag)
    state: dict[str, Any] = {"mode": "none", "st": await is_storyteller(session, identity_key, owner, known)}
    if player is None:
        return state
    state["chars"] = player.names
    character = player.active
    if character is None:
        return state
    summary = await services.sheet_summary(session, character, player.locale)
    return _with_sheet(state, character.name, character.status, character.system, summary)


async def hud_state_in(reading: Reading, services: AdapterServices, system: str) -> dict[str, Any]:
    """``hud_state`` inside the router's unit (its ``state`` callback), from what the router resolved:
    the names and the active character by two prepared reads, the Storyteller flag as it found it."""
    sender = reading.sender
    state: dict[str, Any] = {"mode": "none", "st": reading.storyteller}
    state["chars"] = await sender.character_names(system, CHARS_LISTED)
    character = await sender.active_character(None)
    if character is None or character.retired_at is not None:
        return state
    summary = await services.sheet_summary(reading.unit.session, character, sender.person_locale)
    return _with_sheet(state, character.name, character.status, character.system, summary)


def _with_sheet(
    state: dict[str, Any], name: str, status: str, system: str, summary: SheetSummary
) -> dict[str, Any]:
    state.update(
        mode="gameplay" if status == "approved" else "chargen",
        char=name,
        status=status,
        system=system,
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
    rows, page, pages, total = await roster_page(session, system, statuses, query, page, ROSTER_PAGE)
    names = [name for name, _ in rows]
    first = page * ROSTER_PAGE + 1
    return {
        "names": names,
        "labels": [label(first + i, n) for i, n in enumerate(names)],
        "statuses": [status for _, status in rows],
        "page": page,
        "pages": pages,
        "total": total,
    }
