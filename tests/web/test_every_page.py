"""Every page of ``adapters.web.routes.PAGES``, as each role it is for, at 1280 and 390 px in real
Chromium (the phone in Russian): axe-core finds no serious or critical violation, nothing overflows
sideways, no word is broken mid-word in a table header or cell. Screenshots of each go to
/work/screens/every/ for a person to look at. A GET route missing from the list fails the first test."""

from __future__ import annotations

import io
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from axe_playwright_python.async_playwright import Axe
from PIL import Image

from adapters.web.routes import NOT_PAGES, PAGES
from gateway.core.dice import ScriptedDice
from gateway.features import profiles
from tests.web.conftest import Site
from tests.web.test_account_flow import _id, _submitted
from tests.web.test_account_helpers import ACCOUNT, link_path, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
SCREENS = Path(os.environ.get("GATEWAY_TEST_SCREENS", "/work/screens")) / "every"
SERIOUS = {"serious", "critical"}
# Layout only: the page's widest element against the window, and any table cell whose longest word
# is wider than the cell (a word the browser had to break).
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"
BROKEN_WORDS = """() => {
  const broken = [];
  const probe = document.createElement("span");
  probe.style.position = "absolute"; probe.style.visibility = "hidden"; probe.style.whiteSpace = "nowrap";
  document.body.append(probe);
  for (const cell of document.querySelectorAll("main th, main td")) {
    const style = getComputedStyle(cell);
    if (cell.getBoundingClientRect().width <= 1) continue;  // hidden at this width
    probe.style.font = style.font;
    const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (const word of (cell.innerText || "").split(/\\s+/)) {
      probe.textContent = word;
      if (word && probe.getBoundingClientRect().width > room + 1) broken.push(word);
    }
  }
  probe.remove();
  return broken;
}"""


async def test_every_get_route_is_a_listed_page_or_listed_as_none(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    routes = {
        route.resource.canonical.replace("{roll_id}", "{roll}").replace("{id}", "{character}")
        for route in served.client.app.router.routes()
        if route.method == "GET" and route.resource is not None
    }
    missing = sorted(path for path in routes if path not in PAGES and path not in NOT_PAGES)
    assert missing == [], f"add these pages to adapters/web/routes.py PAGES: {missing}"


async def test_every_page_is_accessible_and_fits_a_phone(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 10, 1, 8, 3, 7, 2, 6] * 5))
    await _submitted(served, "Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, "st approve Mira Vance", "owner", st=True)
    (rolled,) = await say(served, "roll physical")
    character = await _id(served, "Mira Vance")
    # Her sheet with all it can show: a biography in paragraphs and a portrait.
    await say(served, "char bio Raised above the night market. // Keeps a ledger of every favour owed.")
    portrait = io.BytesIO()
    Image.new("RGB", (600, 800), (90, 40, 50)).save(portrait, "PNG")
    await profiles.set_portrait(
        served.gateway.services.vault, character, portrait.getvalue(), "image/png", datetime.now(UTC)
    )
    slugs = sorted(tool.slug for tool in served.gateway.services.web_tools())
    axe = Axe()
    problems: list[str] = []
    SCREENS.mkdir(parents=True, exist_ok=True)
    for role, who in (("visitor", None), ("player", "mira"), ("storyteller", "sam")):
        for phone in (False, True):
            # At phone width in Russian, whose words are the longest: where a header breaks first.
            page = await new_page(phone=phone, locale="ru" if phone else "en")
            if who is not None:
                await page.goto(served.url(await link_path(served, who)))
                await page.click("#sign-in")
                await page.wait_for_url("**/me")
            for template, roles in PAGES.items():
                if role not in roles:
                    continue
                paths = (
                    [template.replace("{slug}", slug) for slug in slugs]
                    if "{slug}" in template
                    else [template]
                )
                for shown in paths:
                    path = shown  # the example filled in; the screenshot is named by the template
                    if "{token}" in path:
                        path = await link_path(served, "visitor")
                    path = path.replace("{character}", str(character))
                    path = path.replace("{roll}", str(rolled.result["id"]))  # type: ignore[index]
                    await page.goto(served.url(path))
                    name = f"{role}-{'phone' if phone else 'desktop'}-{_file(shown)}"
                    await page.screenshot(path=str(SCREENS / f"{name}.png"), full_page=True)
                    found = await axe.run(page)
                    for v in found.response["violations"]:
                        if v["impact"] in SERIOUS:
                            targets = [n["target"] for n in v["nodes"]][:3]
                            problems.append(f"{name}: {v['id']} ({v['impact']}): {targets}")
                    if (wider := await page.evaluate(OVERFLOW)) > 0:
                        problems.append(f"{name}: {wider} px wider than the window")
                    if broken := await page.evaluate(BROKEN_WORDS):
                        problems.append(f"{name}: words broken in table cells: {broken[:5]}")
    assert problems == [], "\n".join(problems)


def _file(path: str) -> str:
    return path.strip("/").replace("/", "_").replace("{", "").replace("}", "") or "home"
