"""The Dice roller practice table in a real browser: the book's fields, the computed Dice to roll and
Opposition, exact odds as a chart with its numbers as text, and a practice roll that is marked as
such and never logged."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import expect

from adapters.web.chart import share
from gateway.core.dice import ScriptedDice
from plugins.nightcap import odds
from tests.web.conftest import Site
from tests.web.watch import complaints, row_counts

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
BOOK_FIELDS = ("Trait / pool", "Modifier", "Opposing pool", "Their modifier")


async def chart_rows(page: Any, n: int) -> dict[str, str]:
    """The numbers of the ``n``-th chart, read from its table as a screen reader would."""
    rows = page.locator(f"figure.odds >> nth={n}").locator("tr")
    out = {}
    for i in range(await rows.count()):
        out[await rows.nth(i).locator("th").inner_text()] = await rows.nth(i).locator("td").inner_text()
    return out


async def test_the_book_s_fields_and_the_exact_odds_as_a_chart(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/tools/roller"))
    for label in BOOK_FIELDS:
        assert await page.get_by_label(label, exact=True).count() == 1
    assert await page.locator("dt").all_inner_texts() == ["Dice to roll", "Opposition"]
    await page.get_by_label("Trait / pool").fill("3")
    await page.get_by_label("Modifier", exact=True).fill("2")
    await expect(page.locator("#dice-to-roll")).to_have_text("5 dice")
    await expect(page.locator("figure.odds svg title")).to_have_text("Your odds of each degree (5 dice)")
    exact = odds.roll_odds(5).degrees
    shown = await chart_rows(page, 0)
    assert shown == {name.title(): share("en", p) for name, p in exact.items()}
    # The SVG draws one bar per degree, each labelled with the same percentage.
    assert await page.locator("figure.odds >> nth=0").locator("svg rect.bar").count() == 6
    assert share("en", exact["solid"]) in (
        await page.locator("figure.odds >> nth=0").locator("svg").text_content() or ""
    )
    await page.get_by_label("Opposing pool").fill("4")
    await page.get_by_label("Their modifier").fill("-1")
    await expect(page.locator("#opposition")).to_have_text("3 dice")
    await expect(page.locator("figure.odds")).to_have_count(3)
    contest = odds.contest_odds(odds.roll_odds(5), odds.roll_odds(3))
    rows = await chart_rows(page, 1)
    assert rows["You win, clear (2–3)"] == share("en", contest.margins["left"]["clear"])
    assert rows["Deadlock (0)"] == share("en", contest.outcomes["deadlock"])
    assert rows["Both botch"] == share("en", contest.outcomes["both_botch"])
    await page.get_by_label("Modifier", exact=True).fill("-4")
    await expect(page.locator("#dice-to-roll")).to_have_text("a chance die")
    assert trouble == []


async def test_a_practice_roll_is_marked_and_never_logged(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(dice=ScriptedDice([10, 7, 1, 4, 3, 8]))
    before = await row_counts(served.gateway)
    page = await new_page(phone=True)
    trouble = complaints(page)
    await page.goto(served.url("/tools/roller?pool=3&mod=1&opp=2"))
    await page.get_by_role("button", name="Practice roll").click()
    await expect(page.locator("#practice h2")).to_have_text(
        "Practice roll: not logged, no Storyteller sees it."
    )
    cells = page.locator("#practice tbody tr")
    assert await cells.nth(0).inner_text() == "You\t10, 7, 1, 4\t2\tSolid"
    assert await cells.nth(1).inner_text() == "They\t3, 8\t1\tMarginal"
    assert await page.text_content("#practice .outcome") == "You win by 1 (narrow)"
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert await row_counts(served.gateway) == before  # no roll log row, no Storyteller log line
    assert trouble == []


async def test_bad_input_gets_one_line_in_the_reader_s_language(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    response = await served.client.get("/tools/roller", params={"pool": "40", "mod": "20"})
    assert "A pool of 60 is above the maximum of 50 dice." in await response.text()
    page = await new_page(locale="cs")
    await page.goto(served.url("/tools/roller?pool=x"))
    assert await page.text_content("ul.errors") == "Vlastnost / počet kostek: napište celé číslo."
    assert await page.locator("figure.odds").count() == 0
    await page.goto(served.url("/tools/roller?pool=2&opp=1"))
    assert await page.text_content("#dice-to-roll") == "2 kostky"
    assert await page.text_content("#opposition") == "1 kostka"


async def test_the_keyboard_alone_works_the_table(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(dice=ScriptedDice([9, 9]))
    page = await new_page()
    await page.goto(served.url("/tools/roller"))
    await page.get_by_label("Trait / pool").focus()
    await page.keyboard.press("Control+A")
    await page.keyboard.type("2")
    await expect(page.locator("#dice-to-roll")).to_have_text("2 dice")
    for _ in range(5):  # modifier, opposing pool, their modifier, House rules (closed), Show the odds
        await page.keyboard.press("Tab")
    await page.keyboard.press("Tab")  # Practice roll
    assert await page.evaluate("document.activeElement.textContent") == "Practice roll"
    await page.keyboard.press("Enter")
    await expect(page.locator("#practice")).to_be_visible()
