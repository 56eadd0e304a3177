"""Every system's sheet page, as its player and as a Storyteller, at 1280 and 390 px in a real
browser: nothing wider than the screen, no word broken across lines (dots wrap by field, headings
and labels stay whole), and axe-core finds no serious or critical violation. Screenshots of each go
to the screens directory for a person to look at."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, SCREENS, browser_sign_in, say
from tests.web.test_sheet_pages import made

axe_playwright = pytest.importorskip("axe_playwright_python.async_playwright")

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]

# Each word of the sheet's text on one line: (word, number of lines it is drawn on) for those broken.
BROKEN_WORDS = """() => {
  const broken = [];
  const sheet = document.querySelector('.sheet');
  const walker = document.createTreeWalker(sheet, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const parent = node.parentElement;
    if (!parent || parent.closest('option, select, textarea, .visually-hidden')) continue;
    const words = /\\S+/g;
    let found;
    while ((found = words.exec(node.data))) {
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push([found[0], tops.size]);
    }
  }
  return broken;
}"""
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

# What each system's sample character has typed into it: long words, the books' own terms.
SHEETS = {
    "nightcap": [
        "char new Mira Vance",
        "trait physical 4",
        "trait mental 3",
        "trait spirit 2",
        "char set origin Technomancer of the Virtual Adepts, Prague chantry",
        "char set weakness Cannot refuse an unanswered riddle",
        "power add Shadow Step adept physical",
        "power add Glow basic spirit",
    ],
    "decanter": [
        "char new Ada Byron",
        "set athletics 2",
        "set animal_ken 3",
        "set intimidation 2",
        "set specialties Brawl (dirty), Socialize (high society)",
        "set notes Owes the Prince a boon; keeps a knife in the boot",
    ],
    "dramatic": ["char new Jonas Kaltenbrunner", "set alertness 3", "set secondary gang_lore 2"],
    "pravidla": ["char new Anna Nová"],
    "nightwanderers": ["char new Вера Лесанг"],
}
ST_LINES = {
    "pravidla": ['st set "Anna Nová" hunting ano', 'st set "Anna Nová" celerity 2'],
    "nightwanderers": ['st set "Вера" fortitude да', 'st set "Вера" celerity 1'],
}


async def check(page: Any, name: str) -> None:
    await page.wait_for_selector(".sheet")
    assert await page.evaluate(OVERFLOW) <= 0, f"{name}: wider than the screen"
    assert await page.evaluate(BROKEN_WORDS) == [], f"{name}: words broken across lines"
    results = await axe_playwright.Axe().run(page)
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]])
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
    assert serious == [], f"{name}: {serious}"
    await page.screenshot(path=f"{SCREENS}/{name}.png", full_page=True)


async def test_every_sheet_fits_a_phone_keeps_its_words_whole_and_passes_axe(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:sam", "owner", st=True)
    ids = {}
    for system, lines in SHEETS.items():
        character = await made(served, system, lines[0])
        for line in lines[1:]:
            (reply,) = await say(served, line, channel=system)
            assert reply.error is None, reply
        for line in ST_LINES.get(system, ()):
            (reply,) = await say(served, line, "owner", st=True, channel=system)
            assert reply.error is None, reply
        ids[system] = character.id
    # A refusal beside a field at phone width too: the error's words stay whole and inside the screen.
    for who, prefix in (("mira", "/me/c/"), ("sam", "/st/c/")):
        for phone in (False, True):
            page = await new_page(phone=phone)
            await browser_sign_in(served, page, who)
            for system, character_id in ids.items():
                await page.goto(served.url(f"{prefix}{character_id}"))
                role = "player" if who == "mira" else "storyteller"
                await check(page, f"sheet-{system}-{role}-{'phone' if phone else 'desktop'}")
            if who == "mira":
                await page.goto(served.url(f"/me/c/{ids['nightcap']}"))
                await page.fill("#f-social", "4")
                await page.click("#save-sheet")
                await page.wait_for_selector("#error-social")
                await check(page, f"sheet-nightcap-refused-{'phone' if phone else 'desktop'}")
            await page.close()
