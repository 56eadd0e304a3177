"""In chat, every system's ``odds`` ends with a link to the same odds as a chart when ``[web]
public_url`` is set, and the link opens that chart."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from gateway.core.settings import Settings
from gateway.rules.chart_link import chart_link
from tests.web.conftest import Site
from tests.web.watch import say

SiteMaker = Callable[..., Awaitable[Site]]
BASE = "https://dice.example.org"


@pytest.mark.parametrize(
    ("system", "line", "link"),
    [
        ("nightcap", "odds 5 vs 3", "/tools/roller?pool=5&opp=3"),
        ("nightcap", "odds 4", "/tools/roller?pool=4"),
        ("decanter", "odds 5 dc 3", "/tools/decanter?pool=5&dc=3&quality=0"),
        ("dramatic", "odds 5 diff 7", "/tools/dramatic?pool=5&difficulty=7&specialty=0"),
        ("pravidla", "odds 6 tn 5 need 2", "/tools/pravidla?pool=6&target=5&need=2"),
        ("nightwanderers", "odds 4 diff 5 need 2", "/tools/nightwanderers?pool=4&difficulty=5&need=2"),
    ],
)
async def test_odds_end_with_a_link_to_their_chart(
    site: SiteMaker, system: str, line: str, link: str
) -> None:
    served = await site(platforms=("web", "console"), web={"public_url": BASE + "/"})
    if system != "nightcap":
        await say(served.gateway, f"system {system}", as_="st", st=True)
    (reply,) = await say(served.gateway, line)
    assert reply.text.endswith(": " + BASE + link), reply.text  # " Chart: ", " Graf: " in Czech
    page = await served.client.get(link)
    assert page.status == 200 and "<svg" in await page.text()


async def test_no_link_without_a_public_address(site: SiteMaker) -> None:
    served = await site(platforms=("web", "console"))
    (reply,) = await say(served.gateway, "odds 5")
    assert "http" not in reply.text


def test_the_link_speaks_the_reader_s_language_and_stays_off_with_the_web() -> None:
    on = Settings(web={"public_url": BASE})
    assert chart_link(on, "cs", "roller", pool=3, opp=None) == f" Graf: {BASE}/tools/roller?pool=3"
    assert chart_link(Settings(web={"public_url": BASE, "enabled": False}), "en", "roller", pool=3) == ""
