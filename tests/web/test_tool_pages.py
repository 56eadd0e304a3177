"""Every rule system's own tool page (``gateway_web_tools``) in a real browser: listed on /tools/,
its fields labelled, its charts the system's exact odds, bad input one short line, heavy odds in the
offload pool with chat's bound."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from fractions import Fraction
from typing import Any

import pytest
from playwright.async_api import expect

from adapters.web.chart import share
from gateway.rules import binomial
from plugins.decanter import odds as decanter_odds
from plugins.dramatic import odds as dramatic_odds
from plugins.nightwanderers import odds as nw_odds
from tests.web.conftest import Site
from tests.web.watch import XSS, complaints, row_counts

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def test_the_index_lists_every_tool(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/"))
    await page.get_by_role("link", name="Tools").first.click()
    await expect(page.locator("h1")).to_have_text("Tools")
    links = await page.locator("ul.tool-list a").evaluate_all("(as) => as.map((a) => a.getAttribute('href'))")
    assert links[:2] == ["/tools/budget", "/tools/roller"]
    assert sorted(links[2:]) == [
        "/tools/decanter",
        "/tools/dice",  # dice notation, every system's (issue 33)
        "/tools/dramatic",
        "/tools/nightwanderers",
        "/tools/pravidla",
    ]
    for href in links:
        await page.goto(served.url(href))
        assert await page.locator("h1").count() == 1
        unlabelled = await page.evaluate(
            "() => [...document.querySelectorAll('input, select')]"
            ".filter((e) => e.type !== 'hidden' && e.labels.length === 0).map((e) => e.name)"
        )
        assert unlabelled == [], (href, unlabelled)
    assert trouble == []


@pytest.mark.parametrize(
    ("slug", "fill", "expected"),
    [
        (
            "decanter",
            {"Dice": "5"},
            lambda: {"Botch": decanter_odds.roll_odds(5, dc=3, quality=1).degrees.get("botch", Fraction(0))},
        ),
        (
            "dramatic",
            {"Dice": "5", "Difficulty": "7"},
            lambda: {"Success": dramatic_odds.roll_odds(5, 7, specialty=True).success},
        ),
        (
            "pravidla",
            {"Dice": "6", "Target number": "5", "Successes needed": "2"},
            lambda: {"Success": binomial.at_least(6, 5, 2, sides=6)},
        ),
        (
            "nightwanderers",
            {"Dice": "4", "Difficulty": "5", "Successes needed": "2"},
            lambda: {"Good": nw_odds.qualities(4, 5, 2)["good"]},
        ),
    ],
)
async def test_each_system_s_page_shows_its_exact_odds(
    site: SiteMaker,
    new_page: PageMaker,
    slug: str,
    fill: dict[str, str],
    expected: Callable[[], dict[str, Fraction]],
) -> None:
    served = await site()
    before = await row_counts(served.gateway)
    page = await new_page(phone=True)
    trouble = complaints(page)
    await page.goto(served.url(f"/tools/{slug}"))
    if slug == "decanter":
        await page.get_by_label("Difficulty Class (DC)").fill("3")
        await page.get_by_label("Dice quality").select_option("1")
    if slug == "dramatic":
        await page.get_by_label("Specialty (10s roll again)").check()
    for label, value in fill.items():
        await page.get_by_label(label, exact=True).fill(value)
    want = {label: share("en", p) for label, p in expected().items()}
    first = next(iter(want))
    await expect(
        page.locator("figure.odds >> nth=0").locator(f"tr:has(th:text-is('{first}')) td")
    ).to_have_text(want[first])
    assert await page.locator("figure.odds").count() == 2  # the degrees and the successes
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert await row_counts(served.gateway) == before
    assert trouble == []


async def test_bad_input_is_one_short_line_and_is_escaped(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/tools/nightwanderers?pool=" + XSS))
    assert await page.text_content("ul.errors") == "Dice: write a whole number."
    raw = await (await served.client.get("/tools/nightwanderers", params={"pool": XSS})).text()
    assert XSS not in raw and "&lt;img src=x onerror=alert(1)&gt;" in raw  # kept in the field, escaped
    assert await page.locator("main img").count() == 0
    await page.goto(served.url("/tools/pravidla?pool=51"))
    assert await page.text_content("ul.errors") == "A pool of 51 is above the maximum of 50 dice."
    await page.goto(served.url("/tools/dramatic?difficulty=11&lang=ru"))
    assert await page.text_content("ul.errors") == "Сложность: от 2 до 10."
    missing = await served.client.get("/tools/nothing")
    assert missing.status == 404 and "There is no page at this address." in await missing.text()
    assert trouble == []


async def test_heavy_odds_keep_chat_s_time_bound(site: SiteMaker) -> None:
    served = await site(gateway={"offload_timeout": 0.001, "max_pool": 1000})
    response = await served.client.get("/tools/decanter", params={"pool": "1000", "quality": "2"})
    assert "That takes too long to work out here; try smaller pools." in await response.text()
    roller = await served.client.get("/tools/roller", params={"pool": "1000", "opp": "1000", "partial": "1"})
    assert "That takes too long to work out here" in await roller.text()


def test_chart_values_read_exact_zero_and_one() -> None:
    assert share("en", Fraction(0)) == "0%" and share("en", Fraction(1)) == "100%"
    assert share("cs", Fraction(1, 3)) == "33,3\u00a0%"
    assert share("en", Fraction(1, 10**6)) == "<0.1%"


async def test_the_watch_sees_a_csp_violation(site: SiteMaker, new_page: PageMaker) -> None:
    """The CSP checks above could fail: inline script on a tool page is refused and reported."""
    served = await site()
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/tools/roller"))
    await page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1';"
        " document.body.appendChild(s); }"
    )
    await expect(page.locator("h1")).to_have_count(1)
    assert await page.evaluate("() => window.ran === undefined")
    assert any("Content Security Policy" in line for line in trouble), trouble
