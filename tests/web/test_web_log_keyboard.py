"""The Storyteller log and the roll form from the keyboard alone, in real Chromium: Tab and Shift+Tab to
move, Enter and Space to press, the arrow keys to pick in a closed select (as a keyboard user does), and
every element that takes focus on the way shows a visible outline. The log's live rows land under
their hour's heading in the browser's own time zone, a new heading when the hour turns."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from playwright.async_api import expect

from gateway.core.dice import ScriptedDice
from gateway.testing import Clock
from tests.web.conftest import DESKTOP, Site
from tests.web.test_account_flow import _submitted
from tests.web.test_account_helpers import ACCOUNT, link_path, say

SiteMaker = Callable[..., Awaitable[Site]]
# The focused element, and whether its focus can be seen: an outline at least 2 px wide in a colour
# that is not transparent.
FOCUSED = """() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  const seen = s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2
    && s.outlineColor !== "transparent" && !s.outlineColor.endsWith(", 0)");
  return {tag: e.tagName, id: e.id, text: (e.textContent || "").trim(), href: e.getAttribute("href") || "",
          seen: seen};
}"""


async def _tab_to(page: Any, wanted: Callable[[dict[str, Any]], bool], *, back: bool = False) -> None:
    """Tab (or Shift+Tab) until the focused element is the one wanted, each stop's focus visible."""
    for _ in range(80):
        await page.keyboard.press("Shift+Tab" if back else "Tab")
        focused = await page.evaluate(FOCUSED)
        assert focused["seen"], f"focus not visible on {focused}"
        if wanted(focused):
            return
    raise AssertionError("the element was never reached by Tab")


async def _sign_in(served: Site, page: Any, who: str) -> None:
    await page.goto(served.url(await link_path(served, who)))
    await _tab_to(page, lambda f: f["id"] == "sign-in")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/me")


async def test_a_storyteller_works_the_log_and_a_player_rolls_from_the_keyboard(
    site: SiteMaker, browser: Any
) -> None:
    clock = Clock(datetime(2026, 11, 30, 20, 50, tzinfo=UTC))
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 10, 1, 8, 3, 7, 2, 6] * 4), clock=clock)
    await _submitted(served, "Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, "st approve Mira Vance", "owner", st=True)
    clock.advance(minutes=1)
    (rolled,) = await say(served, "roll physical")
    # The browser is in Prague (UTC+1), the gateway's zone is the machine's: the hours are Prague's.
    context = await browser.new_context(viewport=DESKTOP, locale="en", timezone_id="Europe/Prague")
    page = await context.new_page()
    await _sign_in(served, page, "sam")

    await _tab_to(page, lambda f: f["text"] == "Storyteller log")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/st/log?tz=Europe%2FPrague")
    await expect(page.locator("#live-log > li.group > h2").first).to_have_text("2026-11-30 21:00–22:00 CET")
    await expect(page.locator("#live-state")).to_have_attribute("data-state", "live")

    # Every filter, each by the keyboard: a character, a time, a kind, a platform, the grouping.
    await _tab_to(page, lambda f: f["id"] == "log-character")
    await page.keyboard.press("ArrowDown")  # the first character in the log: Mira Vance
    await page.keyboard.press("Tab")
    await page.keyboard.type("2h")
    for _ in range(3):  # kind: Rolls; platform: Terminal; group: channel and scene
        await page.keyboard.press("Tab")
        await page.keyboard.press("ArrowDown")
    await _tab_to(page, lambda f: f["text"] == "Filter")
    await page.keyboard.press("Space")
    await page.wait_for_url("**/st/log?character=*")
    asked = parse_qs(urlsplit(page.url).query)
    assert {k: v[0] for k, v in asked.items() if k != "character"} == {
        "since": "2h",
        "kind": "rolls",
        "platform": "console",
        "group": "scene",
        "tz": "Europe/Prague",
    }
    await expect(page.locator("#live-log > li.group > h2")).to_have_text(["main · Terminal"])
    await expect(page.locator("#live-log p.line")).to_have_text([rolled.text])
    await expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
    # Back up to the grouping with Shift+Tab: Hour again, and the filters kept in the URL.
    await _tab_to(page, lambda f: f["id"] == "log-group", back=True)
    await page.keyboard.press("ArrowUp")
    await _tab_to(page, lambda f: f["text"] == "Filter")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**group=hour*")
    await expect(page.locator("#live-state")).to_have_attribute("data-state", "live")

    # Live: the hour turns and a roll arrives under a new heading on top.
    clock.advance(hours=1)
    (later,) = await say(served, "roll physical")
    await expect(page.locator("#live-log > li.group > h2")).to_have_text(
        ["2026-11-30 22:00–23:00 CET", "2026-11-30 21:00–22:00 CET"]
    )
    await expect(page.locator("#live-log > li.group").first.locator("p.line")).to_have_text([later.text])

    # A row's detail: its verify page.
    await _tab_to(page, lambda f: f["href"] == f"/r/{later.result['id']}")  # type: ignore[index]
    await page.keyboard.press("Enter")
    await page.wait_for_url(f"**/r/{later.result['id']}")  # type: ignore[index]
    await expect(page.locator("h1")).to_contain_text(later.result["id"])  # type: ignore[index]
    await context.close()

    # The player rolls from the sheet.
    context = await browser.new_context(viewport=DESKTOP, locale="en")
    page = await context.new_page()
    await _sign_in(served, page, "mira")
    await _tab_to(page, lambda f: f["text"] == "Mira Vance")
    await page.keyboard.press("Enter")
    await page.wait_for_url("**/me/c/*")
    await _tab_to(page, lambda f: f["id"].startswith("roll-"))
    await page.keyboard.type("physical")
    await _tab_to(page, lambda f: f["text"] == "Roll")
    await page.keyboard.press("Space")
    await expect(page.locator("section.replies p.reply")).to_contain_text("Mira Vance rolls Physical")
    await context.close()
