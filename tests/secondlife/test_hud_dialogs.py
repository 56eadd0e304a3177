"""Every dialog and text box prompt of the HUDs fits llDialog's message limit (under 512 bytes) with
room for the names in it, so ``fit()`` never has to cut a question off (protocols.md §1.3: "The
message must be <512 bytes and not empty. At most 12 buttons, all strings, each 1–24 bytes").

Prompts are read from the scripts: the literal parts are counted in UTF-8 bytes, and every other
term gets the largest value it can hold (a character or power name: 60 characters, 4 bytes each).
The button side is ``test_lsl.test_every_dialog_fits_12_buttons_of_24_bytes``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.secondlife.test_lsl import call_arguments

LSL = Path(__file__).resolve().parents[2] / "adapters" / "secondlife" / "lsl"
NAME = 60 * 4  # gateway/features/characters.py: "A character name is 1 to 60 characters long" (and powers)
NUMBER = 11  # an LSL integer as text
POOL = 2 * NUMBER + 1  # pool(): "cur/max"
# Terms other than literals, and the most bytes each can be.
BOUNDS = {
    "m": NAME,  # a button (24 bytes) or a typed name
    "gA": NAME,
    "gChar": NAME,
    "who": NAME,
    'pool("willpower")': POOL,
    'pool("essence")': POOL,
    'pool("damage")': POOL,
    "head": 160,
    "gCharStatus": len("submitted"),  # the roster's header: status, numbers and "Nothing here."
    'st(["char"])': NAME,
    "(string)llGetListLength(gPick)": NUMBER,  # the Macros page: how many in all
    'd(["set", gField, 0])': NAME,  # a declared field's label
    "gB": NAME + len(" of ") + NAME,  # the ST HUD's set_field(): a field's label " of " the character
}
# Shown after the question, so fit() cuts only them: the pools and the sheet's text fields.
TAILS = ("pools_line()", "fields_text()")
LITERAL = re.compile(r'"((?:[^"\\]|\\.)*)"')


def terms(expr: str) -> list[str]:
    """``"a" + b + "c"`` -> its terms (no prompt has a + inside a literal with spaces round it)."""
    return [t.strip() for t in " ".join(expr.split()).split(" + ")]


def prompts(source: str) -> list[str]:
    found = []
    for match in re.finditer(r"\b(menu|ask|ask_wp|offer|offer_traits|offer_tiers)\(", source):
        args = call_arguments(source, match.end())
        if args[0].startswith("string ") or args[1] in ("text", "gOfferText"):
            continue  # the definition, or a helper passing its caller's prompt on (read at the caller)
        found.append(args[1])
    return found


def most_bytes(expr: str, source: str) -> int:
    total = 0
    found = terms(expr)
    while found and found[-1] in TAILS:
        found.pop()
    for term in found:
        literal = LITERAL.fullmatch(term)
        if literal:
            total += len(literal.group(1).encode().decode("unicode_escape").encode("utf-8"))
        elif term == "what":  # ask_mod's parameter: the largest its callers (and theirs) pass
            callers = re.finditer(r"\b(?:ask_mod|roll_with|roll_power)\(", source)
            calls = [call_arguments(source, m.end()) for m in callers]
            total += max(
                most_bytes(a[1], source) for a in calls if not a[0].startswith("string ") and a[1] != "what"
            )
        elif term == "wp_prompt()":
            body = re.search(r"string wp_prompt\(\)\s*\{\s*return (.*?);", source, re.S)
            assert body is not None
            total += most_bytes(body.group(1), source)
        else:
            assert term in BOUNDS, f"cannot bound the prompt term {term!r}"
            total += BOUNDS[term]
    return total


@pytest.mark.parametrize("script", ["player_hud.lsl", "st_hud.lsl"])
def test_every_prompt_fits_with_the_longest_names(script: str) -> None:
    source = (LSL / script).read_text(encoding="utf-8")
    found = prompts(source)
    assert len(found) >= 20
    for expr in found:
        size = most_bytes(expr, source)
        assert 1 <= size < 512, f"{script}: {expr} can be {size} bytes"


def test_the_new_menus_are_read_here() -> None:
    player = prompts((LSL / "player_hud.lsl").read_text(encoding="utf-8"))
    for text in ("Challenge whom?", "Attack whom?", "Successes to reach", "Help whom?", "Lead with"):
        assert any(text in p for p in player), text
    st = prompts((LSL / "st_hud.lsl").read_text(encoding="utf-8"))
    assert any("Set which trait or pool of" in p for p in st)  # the declared numbers, pools among them
