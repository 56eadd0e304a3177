"""The Point budget calculator in a real browser: a build typed in updates the counts and shows chat's
own refusal lines; the form works without script; what a reader typed is shown as text; nothing is
written to the vault; the page breaks no CSP rule."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import expect

from gateway import UserError
from plugins.nightcap import chargen
from plugins.nightcap.powers import TIERS
from tests.web.conftest import Site
from tests.web.watch import XSS, complaints, row_counts

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


def chat_refusal(sheet: dict[str, Any], check: Callable[..., None], *args: Any) -> str:
    """The line chat refuses with, from the same function the page uses."""
    try:
        check(sheet, *args, chargen.Budget())
    except UserError as refused:
        return str(refused)
    raise AssertionError("no refusal")


async def test_typing_a_build_updates_the_counts_and_shows_chat_s_refusals(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site()
    before = await row_counts(served.gateway)
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/tools/budget"))
    assert await page.text_content("#points-left") == "6"
    assert await page.text_content("#dots-left") == "3"
    await page.get_by_label("Physical").fill("4")
    await expect(page.locator("#points-left")).to_have_text("3")
    await page.get_by_label("Mental").fill("4")
    second = chat_refusal(
        {"traits": {"physical": 4, "mental": 1, "social": 1, "spirit": 1}, "powers": []},
        chargen.check_trait,
        "mental",
        4,
    )
    assert second == "Mental 4 would be a second trait at 4: Physical is already 4."
    await expect(page.locator("li[data-field=mental]")).to_have_text(second)
    assert await page.text_content("#points-left") == "3"  # the refused 4 is not placed
    await page.get_by_label("Mental").fill("3")
    await page.get_by_label("Social").fill("2")
    await expect(page.locator("#points-left")).to_have_text("0")
    assert await page.locator("#refusals").count() == 0
    # Powers: an Adept then an Advanced is one dot too many; chat's own line says so.
    await page.fill("#p0-name", "Shadow Step")
    await page.select_option("#p0-tier", "adept")
    await expect(page.locator("#dots-left")).to_have_text("1")
    await page.fill("#p1-name", "Storm Call")
    await page.select_option("#p1-tier", "advanced")
    over = chat_refusal(
        {"traits": {}, "powers": [{"name": "Shadow Step", "tier": "adept"}]},
        chargen.check_power,
        "Storm Call",
        TIERS["advanced"],
    )
    await expect(page.locator("li[data-field=p1]")).to_have_text(over)
    await page.select_option("#p1-tier", "epic")
    epic = chat_refusal({"traits": {}, "powers": []}, chargen.check_power, "Storm Call", TIERS["epic"])
    await expect(page.locator("li[data-field=p1]")).to_have_text(epic)
    await page.select_option("#p1-tier", "basic")
    await expect(page.locator("#dots-left")).to_have_text("0")
    assert (await page.text_content("#budget-status") or "").startswith(
        "Ready: every point and dot is placed."
    )
    assert "physical=4" in page.url  # the address keeps the build, to share or reload
    assert trouble == []
    assert await row_counts(served.gateway) == before  # nothing was written to the vault


async def test_without_script_the_form_is_a_plain_submit(site: SiteMaker) -> None:
    served = await site()
    response = await served.client.get(
        "/tools/budget", params={"physical": "4", "mental": "4", "p0_name": "X", "p0_tier": "legendary"}
    )
    html = await response.text()
    assert response.status == 200
    assert "Mental 4 would be a second trait at 4: Physical is already 4." in html
    assert "Legendary powers are beyond starting reach" in html
    added = await served.client.get(
        "/tools/budget", params={"p0_name": "A", "p1_name": "B", "p2_name": "C", "add": "1"}
    )
    assert 'id="p3-name"' in await added.text()  # "Add a power" gave a fourth row
    fragment = await served.client.get("/tools/budget", params={"physical": "2", "partial": "1"})
    text = await fragment.text()
    assert "<html" not in text and 'id="points-left">5<' in text


async def test_what_a_reader_typed_is_shown_as_text(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page(phone=True)
    trouble = complaints(page)
    await page.goto(served.url("/tools/budget"))
    await page.fill("#p0-name", "Fine")
    await page.select_option("#p0-tier", "advanced")
    await page.fill("#p1-name", XSS)
    await page.wait_for_selector("li[data-field=p1]")
    shown = await page.text_content("li[data-field=p1]")
    assert shown is not None and shown.startswith(XSS + " (Basic) would spend 4 power dots")
    assert await page.locator("#budget-result img").count() == 0
    await page.reload()  # the address now holds the payload: the full page escapes it too
    assert await page.input_value("#p1-name") == XSS
    assert await page.locator("main img").count() == 0
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert trouble == []


async def test_the_page_speaks_the_reader_s_language(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page(locale="ru")
    await page.goto(served.url("/tools/budget"))
    assert await page.text_content("h1") == "Калькулятор очков"
    await page.get_by_label("Физическая").fill("5")
    await page.wait_for_selector("li[data-field=physical]")
    # The refusal is chat's own line, as chat gives it.
    assert "Physical 5 is above 4" in (await page.text_content("li[data-field=physical]") or "")
