"""The sheet pages whole, where the two halves of the web meet: the declared sheet and its editor
(``sheets``) inside the account's surroundings (the roll form, the offer to play in chat, notices,
people by name). For a player's and a Storyteller's sheet of two systems, one with approval in
English and one without in Czech, at phone width: every part is on the page, nothing is wider than
the window and axe-core finds no serious or critical violation. Screenshots go to
/work/screens/whole/."""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from axe_playwright_python.async_playwright import Axe

from gateway.core.dice import ScriptedDice
from tests.web.conftest import Site
from tests.web.test_account_flow import _id, _submitted
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, say
from tests.web.test_every_page import OVERFLOW, SERIOUS
from tests.web.test_sheet_pages import made

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
SCREENS = Path(os.environ.get("GATEWAY_TEST_SCREENS", "/work/screens")) / "whole"


async def fits(page: Any, name: str) -> list[str]:
    """What is wrong with the page as drawn: overflow and axe's serious findings; a screenshot."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)
    problems = [f"{name}: {wider} px wider" for wider in [await page.evaluate(OVERFLOW)] if wider > 0]
    found = await Axe().run(page)
    problems += [f"{name}: {v['id']}" for v in found.response["violations"] if v["impact"] in SERIOUS]
    return problems


async def test_each_sheet_page_has_all_its_parts_and_fits_a_phone(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 10, 1, 8, 3, 7] * 5))
    await say(served, "st add console:sam", "owner", st=True)
    # Nightcap: Mira Vance approved (a notice for Mira), Second submitted (waiting for Sam), Third
    # in creation.
    await _submitted(served, "Mira Vance")
    await say(served, "st approve Mira Vance", "sam", st=True)
    await say(served, "roll physical")
    await _submitted(served, "Second")
    await say(served, "char new Third")
    # Pravidla: no approval, a Storyteller sets the sheet. Běla, made last, is the chat's active
    # character: every other page offers to play its character in chat.
    anna = await made(served, "pravidla", "char new Anna Nová")
    await say(served, "st set 'Anna Nová' strength 3", "sam", st=True, channel="pravidla")
    await made(served, "pravidla", "char new Běla")
    names = ("Mira Vance", "Second", "Third", "Běla")
    mira, second, third, bela = [await _id(served, name) for name in names]

    problems: list[str] = []
    player = await new_page(phone=True)
    await browser_sign_in(served, player)
    assert "Mira Vance" in ((await player.text_content("#notices")) or "")  # approved, on My characters
    problems += await fits(player, "player-mine")
    # (character, roll form, offer to play, editor): a roll once approved (always without approval),
    # the offer where it is not the active one, the editor where the player may change something.
    for character, roll, offer, editor in (
        (mira, 1, 1, 0),
        (second, 0, 1, 1),
        (third, 0, 1, 1),
        (anna.id, 1, 1, 0),
        (bela, 1, 0, 0),
    ):
        await player.goto(served.url(f"/me/c/{character}"))
        name = f"player-{character}"
        # The sheet's own fields' editor (the biography and portrait are the owner's on every sheet).
        editors = ".sheet-groups :is(.edit, fieldset.new-power)"
        shown = [min(1, await player.locator(p).count()) for p in ("#roll-form", "#play-offer", editors)]
        assert shown == [roll, offer, editor], name
        problems += await fits(player, name)

    st = await new_page(phone=True)
    await browser_sign_in(served, st, "sam")
    for character in (mira, second, third, anna.id):
        await st.goto(served.url(f"/st/c/{character}"))
        name = f"storyteller-{character}"
        assert await st.locator("#sheet-editor").count() == 1, name
        assert await st.locator(".account .badge").count() == 1, name  # Second waits for a review
        who = await st.locator("table.history tbody td:nth-child(2)").all_text_contents()
        assert who and all(" · " in w and ":" not in w for w in who), (name, who)  # names, not keys
        problems += await fits(st, name)
    assert "Sam · Terminal" in ((await st.text_content("table.history")) or "")  # Sam set Anna's Síla
    # A Storyteller's own sheet, a player's page: the menu still counts the sheets waiting.
    await say(served, "char new Samuel", "sam")
    await st.goto(served.url(f"/me/c/{await _id(served, 'Samuel')}"))
    assert await st.locator(".account .badge").count() == 1
    assert problems == [], "\n".join(problems)
