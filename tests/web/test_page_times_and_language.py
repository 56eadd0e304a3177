"""Times on pages in ``[gateway] timezone`` with the zone named, inside ``<time datetime>``; the
language switcher keeps the page's query (a tool form's values), with and without script."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, SCREENS, browser_sign_in, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]
TIME = re.compile(
    r'<time datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d)">'
    r"<span>([^<]+)</span> <span>([^<]+)</span></time>"
)


async def test_times_are_in_the_gateway_zone_and_name_it(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, gateway={"timezone": "Asia/Tokyo"})
    await say(served, "char new Mira")
    await say(served, "roll 3")
    await client_sign_in(served)
    sessions = [
        (at, f"{day} {clock}")
        for at, day, clock in TIME.findall(await (await served.client.get("/me/sessions")).text())
    ]
    assert sessions and all(at.endswith("+09:00") and shown.endswith(" JST") for at, shown in sessions)
    at, shown = sessions[0]
    assert shown == f"{at[:10]} {at[11:16]} JST"
    await say(served, "st add console:mira", "owner", st=True)
    logged = TIME.findall(await (await served.client.get("/st/log")).text())
    assert logged and logged[0][0].endswith("+09:00") and re.fullmatch(r"[\d:]{8} JST", logged[0][2])


async def test_switching_language_keeps_the_form_s_values(
    site: SiteMaker, new_page: Callable[..., Awaitable[Any]]
) -> None:
    served = await site()
    page = await (await served.client.get("/tools/roller?pool=7&mod=2&lang=en")).text()
    assert 'href="?pool=7&amp;mod=2&amp;lang=cs"' in page
    browser = await new_page()
    await browser.goto(served.url("/tools/roller"))
    await browser.fill("#pool", "9")  # with script the page re-asks and rewrites its address
    await browser.wait_for_url(lambda url: "pool=9" in url)
    await browser.click("a[hreflang=ru]")
    await browser.wait_for_function("document.documentElement.lang === 'ru'")
    assert await browser.input_value("#pool") == "9"


async def test_times_in_a_browser_at_both_widths(
    site: SiteMaker, new_page: Callable[..., Awaitable[Any]]
) -> None:
    served = await site(extra_plugins=ACCOUNT, gateway={"timezone": "Europe/Prague"})
    await say(served, "char new Mira")
    await say(served, "roll 3")
    await say(served, "st add console:mira", "owner", st=True)
    for locale in ("en", "cs", "ru"):
        for phone in (False, True):
            page = await new_page(locale=locale, phone=phone)
            await browser_sign_in(served, page)
            # The log's hours are the viewer's: it asks for itself again in the browser's zone.
            zone = await page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
            for path, named in (
                ("/me/sessions", "CET"),
                ("/st/log", datetime.now(ZoneInfo(zone)).strftime("%Z")),
            ):
                await page.goto(served.url(path))
                if path == "/st/log" and zone != "Europe/Prague":
                    await page.wait_for_url("**/st/log?tz=*")
                shown = await page.locator("main time").first.text_content()
                assert (shown or "").endswith(f" {named}"), shown
                width = "phone" if phone else "desktop"
                name = path.strip("/").replace("/", "-")
                await page.screenshot(path=f"{SCREENS}/times-{name}-{locale}-{width}.png", full_page=True)
