"""Dice notation on the web (issue 33): ``/tools/dice`` charts an expression's exact odds from a text
field, bad notation is one short line, too large says so; ``/r/ID`` tells a notation roll as chat's
``verify`` does, in a real browser."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import expect

from adapters.web.chart import share
from gateway.core.dice import ScriptedDice
from gateway.features.notation.odds import odds
from tests.web.conftest import Site
from tests.web.watch import XSS, complaints, row_counts, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def test_the_dice_page_charts_exact_odds(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    before = await row_counts(served.gateway)
    page = await new_page(phone=True)
    trouble = complaints(page)
    await page.goto(served.url("/tools/dice"))
    await page.get_by_label("Expression", exact=True).fill("4d6kh3")
    await page.get_by_role("button").first.click()
    want = share("en", dict(odds("4d6kh3").totals)[18])
    await expect(page.locator("figure.odds >> nth=0").locator("tr:has(th:text-is('18')) td")).to_have_text(
        want
    )
    assert await page.locator("figure.odds").count() == 2  # exactly, and at least
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert await row_counts(served.gateway) == before
    assert trouble == []


async def test_bad_or_huge_notation_is_one_line(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page()
    await page.goto(served.url("/tools/dice?expression=4d6kh5"))
    assert await page.text_content("ul.errors") == "4d6kh5 keeps 5 of 4 dice: keep from 1 to 4."
    await page.goto(served.url("/tools/dice?lang=cs&expression=0d6"))
    czech = "0d6 nehází žádnou kostkou: hoďte aspoň jednou kostkou (1d6)."
    assert await page.text_content("ul.errors") == czech
    await page.goto(served.url("/tools/dice?lang=en&expression=10d10!"))
    assert "too long" in (await page.text_content("ul.errors") or "")
    raw = await (await served.client.get("/tools/dice", params={"expression": XSS})).text()
    assert XSS not in raw


async def test_the_verify_page_tells_a_notation_roll(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(dice=ScriptedDice([1, 6, 2, 3, 5]), platforms=("web", "console"))
    (rolled,) = await say(served.gateway, "roll 4d6kh3r1", as_="mira")
    roll_id = rolled.result["id"]  # type: ignore[index]
    (chat,) = await say(served.gateway, f"verify {roll_id}", as_="reader")
    assert "4d6kh3r1: [~1~ 6 (2) 3 5] → 14" in chat.text, chat.text
    page = await new_page()
    await page.goto(served.url(f"/r/{roll_id}"))
    assert await page.text_content("#line") == chat.text
