"""The web tools follow a channel's house rules: chat's ``odds`` link carries the channel's dice
switches as ``house.NAME`` fields, the page computes its charts with them (the same pure odds
functions chat uses) and shows them in a "House rules" section a reader may change; a wrong value
is one line, as ``house set`` refuses it."""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.async_api import expect

from adapters.web.chart import share
from gateway.core.dice import ScriptedDice
from gateway.core.web_tool import read_house
from plugins.decanter.web_tools import TOOL as DECANTER
from plugins.dramatic.web_tools import TOOL as DRAMATIC
from plugins.nightcap import mechanics, odds
from plugins.nightcap.house import NightcapHouseRules
from plugins.nightcap.web_tools import odds_rows, practice
from tests.web.conftest import Site
from tests.web.watch import complaints, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
BASE = "https://dice.example.org"
ROW = re.compile(r"<tr><th scope=row>(.*?)</th><td>(.*?)</td></tr>")


def shown_rows(page: str) -> list[tuple[str, str]]:
    """Every chart's rows as the page's screen-reader tables give them."""
    return [(html.unescape(a), html.unescape(b)) for a, b in ROW.findall(page)]


def rows_of(charts: Any) -> list[tuple[str, str]]:
    return [(label, share("en", p)) for chart in charts for label, p in chart.rows]


@pytest.mark.parametrize(
    ("system", "switch", "line", "link", "tool", "values", "house"),
    [
        (
            "dramatic",
            "house set tens_explode always",
            "odds 5 diff 7",
            "/tools/dramatic?pool=5&difficulty=7&specialty=0&house.tens_explode=always",
            DRAMATIC,
            {"pool": 5, "difficulty": 7, "specialty": 0},
            {"tens_explode": "always"},
        ),
        (
            "decanter",
            "house set ones_subtract off",
            "odds 5 dc 3",
            "/tools/decanter?pool=5&dc=3&quality=0&house.ones_subtract=off",
            DECANTER,
            {"pool": 5, "dc": 3, "quality": 0},
            {"ones_subtract": "off"},
        ),
    ],
)
async def test_a_system_s_odds_link_carries_the_channel_s_house_rules(
    site: SiteMaker,
    system: str,
    switch: str,
    line: str,
    link: str,
    tool: Any,
    values: dict[str, int],
    house: dict[str, str],
) -> None:
    served = await site(platforms=("web", "console"), web={"public_url": BASE})
    await say(served.gateway, f"system {system}", as_="st", st=True)
    await say(served.gateway, switch, as_="st", st=True)
    (reply,) = await say(served.gateway, line)
    assert reply.text.endswith(": " + BASE + link), reply.text
    page = await (await served.client.get(link)).text()
    model = served.gateway.services.plugins.registry.systems[system].house_rules
    query = {f"house.{name}": word for name, word in house.items()}
    switches, _, errors = read_house(model, None, tool.house, query, "en")
    assert errors == [] and switches != read_house(model, None, tool.house, {}, "en")[0]
    ruled = rows_of(tool.odds(values, "en", switches))
    assert shown_rows(page) == ruled
    # The same page without the link's house fields shows the book's odds, which differ.
    plain = await (await served.client.get(link.split("&house.")[0])).text()
    assert shown_rows(plain) != ruled


async def test_nightcap_s_practice_table_takes_the_channel_s_dice_switches(site: SiteMaker) -> None:
    served = await site(platforms=("web", "console"), web={"public_url": BASE})
    await say(served.gateway, "house set tens_double off", as_="st", st=True)
    (reply,) = await say(served.gateway, "odds 5 vs 3")
    url = reply.text.rsplit(" ", 1)[1]
    assert url == f"{BASE}/tools/roller?pool=5&opp=3&house.tens_double=off", reply.text
    parts = urlsplit(url)
    page = await (await served.client.get(f"{parts.path}?{parts.query}")).text()
    switches = {"tens_double": False, "ones_subtract": True, "chance_die": True}
    computed = odds_rows(5, 3, switches)
    degrees = odds.roll_odds(5, tens_double=False).degrees
    assert dict(computed.degrees) == degrees != odds.roll_odds(5).degrees
    mine = shown_rows(page)[: len(degrees)]  # the first chart: your degrees
    assert mine == [(name.title(), share("en", p)) for name, p in degrees.items()]
    # ``odds`` with the book's switches keeps its link bare.
    await say(served.gateway, "house reset tens_double", as_="st", st=True)
    (reply,) = await say(served.gateway, "odds 5")
    assert reply.text.endswith(f"{BASE}/tools/roller?pool=5"), reply.text


def test_the_practice_roll_reads_the_dice_with_the_switches() -> None:
    switches = {"tens_double": False, "ones_subtract": False, "chance_die": True}
    rolled = practice(2, None, ScriptedDice([10, 1]), switches)
    assert rolled.mine.total == mechanics.score(2, (10, 1), False, **switches).total == 1
    assert practice(2, None, ScriptedDice([10, 1]), NightcapHouseRules().dice()).mine.total == 1  # +2 -1


async def test_a_wrong_house_value_is_one_line_in_the_reader_s_language(site: SiteMaker) -> None:
    served = await site()
    page = await (await served.client.get("/tools/roller", params={"house.tens_double": "maybe"})).text()
    assert "tens_double is on or off, not maybe." in page and "<svg" not in page
    page = await (
        await served.client.get(
            "/tools/dramatic", params={"house.tens_explode": "<b>x</b>"}, headers={"Accept-Language": "cs"}
        )
    ).text()
    assert "tens_explode může být jen jedno z: specialty, always, never, ne „&lt;b&gt;x&lt;/b&gt;“." in page
    assert "<b>x</b>" not in page


async def test_a_reader_changes_a_house_rule_on_the_page(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site()
    page = await new_page()
    trouble = complaints(page)
    await page.goto(served.url("/tools/roller?pool=5"))
    house = page.locator("details.house")
    assert await house.get_attribute("open") is None  # the book's rules: closed
    await house.locator("summary").click()
    await page.get_by_label("a 10 counts two successes (off: one, like a 7)").select_option("off")
    exact = odds.roll_odds(5, tens_double=False).degrees
    await expect(page.locator("figure.odds >> nth=0").locator("tr >> nth=5").locator("td")).to_have_text(
        share("en", list(exact.values())[5])
    )
    # A link that sets a switch opens the section with the switch as set.
    await page.goto(served.url("/tools/roller?pool=5&house.tens_double=off"))
    assert await house.get_attribute("open") == ""
    assert await page.get_by_label("a 10 counts two successes (off: one, like a 7)").input_value() == "off"
    assert trouble == []
