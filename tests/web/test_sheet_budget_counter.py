"""The creation budget counted as the player types on a Nightcap sheet (issue 34: "a whole creation
budget on one form that shows what is left as you type"), in real Chromium: the counter reads the
sheet's declared budget (``SheetSpec.budget``), goes below zero where a build is over, and after a
save shows the server's own count; without script the page shows the server's count and works."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import expect

from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, say
from tests.web.test_every_page import OVERFLOW, SCREENS, SERIOUS
from tests.web.test_sheet_pages import made
from tests.web.watch import complaints

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def left(page: Any) -> tuple[str | None, str | None]:
    return await page.text_content("#left-traits"), await page.text_content("#left-powers")


async def test_the_counter_counts_as_the_player_types_and_the_server_agrees_on_save(
    site: SiteMaker, new_page: PageMaker, browser: Any
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    mira = await made(served, "nightcap", "char new Mira")
    await made(served, "nightcap", "power add Glow basic spirit")  # one dot already spent, from chat
    page = await new_page(phone=True)
    trouble = complaints(page)  # a CSP refusal of the script, an error in it
    await browser_sign_in(served, page)
    await page.goto(served.url(f"/me/c/{mira.id}"))
    assert await left(page) == ("6", "2")
    found = await Axe().run(page)  # the counter box on a creation sheet: no page of the list has one
    assert [v["id"] for v in found.response["violations"] if v["impact"] in SERIOUS] == []
    assert await page.evaluate(OVERFLOW) == 0
    await page.fill("#f-physical", "3")
    await expect(page.locator("#left-traits")).to_have_text("4")  # nothing sent yet
    await page.fill("#f-mental", "4")
    await expect(page.locator("#left-traits")).to_have_text("1")
    await page.fill("#f-social", "3")  # one over: shown as such, the server will refuse it
    await expect(page.locator("#left-traits")).to_have_text("-1")
    assert await page.get_attribute("li[data-pool=traits]", "class") == "over"
    await page.fill("#f-social", "")  # half-typed: counted as drawn
    await expect(page.locator("#left-traits")).to_have_text("1")
    await page.fill("#f-social", "2")
    await expect(page.locator("#left-traits")).to_have_text("0")
    await page.fill("#new-power", "Shadow Step")
    await page.select_option("#new-tier", "adept")
    await expect(page.locator("#left-powers")).to_have_text("0")
    await page.check("input[name='remove.0']")  # Glow given back
    await expect(page.locator("#left-powers")).to_have_text("1")
    await page.screenshot(path=str(SCREENS / "sheet-budget-counter.png"), full_page=True)
    assert await page.get_attribute("li[data-pool=traits]", "class") in ("", None)
    await page.click("#save-sheet")
    await page.wait_for_selector(".replies")
    assert await page.locator(".field-error").count() == 0
    assert await left(page) == ("0", "1")  # drawn by the server from the saved sheet
    (budget,) = await say(served, "char budget", channel="nightcap")  # chat's count, the authority
    assert "0 of 6 trait points left, 1 of 3 power dots left" in budget.text, budget.text
    assert trouble == []

    # Without script: the server's count, and the same form.
    context = await browser.new_context(java_script_enabled=False)
    try:
        plain = await context.new_page()
        await browser_sign_in(served, plain)
        await plain.goto(served.url(f"/me/c/{mira.id}"))
        assert await left(plain) == ("0", "1")
        await plain.fill("#f-physical", "2")
        assert await left(plain) == ("0", "1")  # nothing counts on the page
        await plain.click("#save-sheet")
        await plain.wait_for_selector(".replies")
        assert await left(plain) == ("1", "1")
    finally:
        await context.close()
