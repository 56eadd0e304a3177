"""Every command line the LSL HUDs can build is one the gateway understands.

The scripts' ``command("...")`` call sites are read from the source; each literal start must have an
example here (so a new menu entry cannot go untested), and each example is sent through the HUD
emulator exactly as the script would build it and must be answered without an error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.secondlife.harness import Hud, new_key

pytest.importorskip("plugins.nightcap.chargen", reason="needs the Nightcap character commands (issue 3)")

LSL = Path(__file__).resolve().parents[2] / "adapters" / "secondlife" / "lsl"
DORIAN = new_key()

# What each menu sends, in an order that makes sense for one character, as the script builds it
# (names quoted with quoted(), trait names lower-cased, modifiers as the buttons read).
PLAYER_CREATION = {
    "char new ": 'char new "Mira Vance"',
    "char set ": "char set origin Mage",
    "trait ": "trait physical 3",
    "power add ": 'power add "Veil" adept spirit',
    "char budget": "char budget",
    "power remove ": 'power remove "Veil"',
    "char use ": 'char use "Mira Vance"',
    "char submit": None,  # sent last, below
}
PLAYER_PLAY = {
    "roll ": "roll physical +1 wp",
    "power use ": 'power use "Knack" basic',
    "sheet": "sheet",
    "health": "health",
    "damage ": "damage 2",
    "heal 1": "heal 1",
    "checkin": "checkin",
    "prove": "prove",
}
ST = {
    "st roll ": "st roll 4+1",
    "st rollstat ": 'st rollstat "Mira Vance" physical -1',
    "st set ": 'st set "Mira Vance" weakness Cannot pass a crossroads',
    "st trait ": 'st trait "Mira Vance" spirit 7',
    "st pool ": 'st pool "Mira Vance" essence 3',
    "st power ": 'st power "Mira Vance" add "Doom" legendary spirit',
    "st show ": 'st show "Mira Vance"',
    "st history ": 'st history "Mira Vance"',
    "st export ": 'st export "Mira Vance"',
    "st sync": "st sync",
    "st unapprove ": 'st unapprove "Mira Vance"',
    "st approve ": 'st approve "Mira Vance"',
    "st announce ": "st announce Doors close at midnight.",
    "st emote ": "st emote The lights flicker.",
    "st add sl:": f"st add sl:{DORIAN}",
    "st list": "st list",
    "st remove sl:": f"st remove sl:{DORIAN}",
}


def literal_starts(script: str) -> set[str]:
    source = (LSL / script).read_text(encoding="utf-8")
    return set(re.findall(r'\bcommand\("([^"]*)"', source))


def test_every_menu_command_has_an_example_here() -> None:
    assert literal_starts("player_hud.lsl") == set(PLAYER_CREATION) | set(PLAYER_PLAY)
    assert literal_starts("st_hud.lsl") == set(ST)


async def send(hud: Hud, text: str) -> str:
    response = await hud.command(text, state=True, body_max=16384)
    assert response.status == 200, response.text
    replies = response.json["replies"]
    assert replies, text
    errors = [r["text"] for r in replies if r.get("error")]
    assert not errors, (text, errors)
    return str(replies[0]["text"])


async def test_the_gateway_understands_every_menu_command(make_world) -> None:  # type: ignore[no-untyped-def]
    world = await make_world(nightcap={"sheet_export": "discord:sheets"})
    world.dice.extend([7] * 100)
    mira = world.hud("Mira Vance")
    st = world.st_hud()
    for start, example in PLAYER_CREATION.items():
        if example is not None:
            assert example.startswith(start)
            await send(mira, example)
    await send(mira, 'power add "Knack" basic mental')
    for trait, value in (("mental", 3), ("social", 2), ("spirit", 2)):
        await send(mira, f"trait {trait} {value}")
    await send(mira, 'power add "Veil" adept spirit')
    await send(mira, "char submit")
    await send(st, 'st approve "Mira Vance"')
    for start, example in PLAYER_PLAY.items():
        assert example.startswith(start)
        await send(mira, example)
    for start, example in ST.items():
        assert example.startswith(start)
        await send(st, example)
