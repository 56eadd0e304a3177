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
     "pools": {"willpower": [cur, max], "essence": [cur, max], "damage": [taken, levels]},
     "fields": [["Origin", "Mage"], ...], "decl": "nightcap.en.3f9a"}

``fields`` are the sheet's filled text and choice fields (label, text), each cut to
``FIELD_BYTES`` and as many as fit ``STATE_BYTES`` in all, so the state still fits a 2048-byte body
beside its replies. ``decl`` names the system's menu declaration (``adapters.secondlife.menus``),
which the HUD asks for when its copy has another tag.
"""

from __future__ import annotations

from typing import Any

from sqlmodel.ext.asyncio.session import AsyncSession

from adapters.secondlife.menus import decl_of
from adapters.secondlife.render import cut_bytes, dumps
from gateway import AdapterServices, Reading, SheetSummary
from gateway.features.characters import player_characters, roster_page
from gateway.features.roles import is_storyteller

LABEL_BYTES = 24
ROSTER_PAGE = 9  # + Prev, Next, Back = 12 dialog buttons
CHARS_LISTED = 11  # the Player HUD's "Switch Character" dialog: 11 names + Back
STATE_BYTES = (
    1792  # the state's most, fields included: 256 bytes of a 2048-byte body stay for a reply or a push's text
)
FIELD_BYTES = 96  # a field's text on the wire (the HUD shows it in a dialog of 511 bytes)
# "Unlocked" is everyone still in CharGen: editing (creation) or waiting for a Storyteller (submitted).
STATUS_FILTERS: dict[str, tuple[str, ...] | None] = {
    "unlocked": ("creation", "submitted"),
    "approved": ("approved",),
    "all": None,
}


def _wire(summary: SheetSummary) -> dict[str, Any]:
    """The summary in the HUD's wire shape (the LSL scripts read it by these keys), text fields
    apart (``_fields``)."""
    return {
        "traits": {t.key: t.rating for t in summary.traits},
        "powers": [[p.name, p.tier, p.trait] for p in summary.powers],
        "pools": {p.key: [p.current, p.max] for p in summary.pools},
    }


def _fields(summary: SheetSummary, room: int) -> list[list[str]]:
    """The filled text and choice fields within ``room`` bytes of JSON, in the sheet's order: each
    text cut to ``FIELD_BYTES``; a field that no longer fits ends the list."""
    out: list[list[str]] = []
    room -= len(',"fields":[]')
    for f in summary.fields:
        label, text = cut_bytes(f.label, LABEL_BYTES), cut_bytes(f.text, FIELD_BYTES)
        size = len(dumps([label, text])) + 1
        if size > room:
            break
        out.append([label, text])
        room -= size
    return out


def _decl(services: AdapterServices, system: str, locale: str | None) -> str | None:
    found = services.systems().get(system)
    if found is None:
        return None
    return str(decl_of(found, locale if locale in found.locales else found.default_locale)["tag"])


async def hud_state(
    session: AsyncSession, services: AdapterServices, identity_key: str, owner: str | None, system: str
) -> dict[str, Any]:
    player = await player_characters(session, identity_key, system, CHARS_LISTED)
    known = None if player is None else (player.person_id, player.storyteller_flag)
    state: dict[str, Any] = {"mode": "none", "st": await is_storyteller(session, identity_key, owner, known)}
    if player is None:
        state["decl"] = _decl(services, system, None)
        return state
    state["chars"] = player.names
    character = player.active
    if character is None:
        state["decl"] = _decl(services, system, player.locale)
        return state
    summary = await services.sheet_summary(session, character, player.locale)
    state["decl"] = _decl(services, character.system, player.locale)
    return _with_sheet(state, character.name, character.status, character.system, summary)


async def hud_state_in(reading: Reading, services: AdapterServices, system: str) -> dict[str, Any]:
    """``hud_state`` inside the router's unit (its ``state`` callback), from what the router resolved:
    the names and the active character by two prepared reads, the Storyteller flag as it found it."""
    sender = reading.sender
    state: dict[str, Any] = {"mode": "none", "st": reading.storyteller}
    state["chars"] = await sender.character_names(system, CHARS_LISTED)
    character = await sender.active_character(None)
    if character is None or character.retired_at is not None:
        state["decl"] = _decl(services, system, sender.person_locale)
        return state
    summary = await services.sheet_summary(reading.unit.session, character, sender.person_locale)
    state["decl"] = _decl(services, character.system, sender.person_locale)
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
    if summary.fields:
        state["fields"] = _fields(summary, STATE_BYTES - len(dumps(state)))
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
