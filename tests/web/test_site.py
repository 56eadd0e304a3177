"""The web adapter's frame: every page carries the security headers, comes in the reader's language,
and escapes what it shows; assets come from the gateway itself."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from tests.web.conftest import Site

SiteMaker = Callable[..., Awaitable[Site]]


async def test_the_home_page_forbids_inline_script_and_framing(site: SiteMaker) -> None:
    served = await site()
    response = await served.client.get("/")
    assert response.status == 200
    csp = response.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "/static/site.css" in await response.text()
    css = await served.client.get("/static/site.css")
    assert css.status == 200 and "focus-visible" in await css.text()


async def test_the_language_follows_the_browser_then_the_reader_s_choice(
    site: SiteMaker, new_page: Callable[..., Awaitable[Any]]
) -> None:
    served = await site()
    page = await new_page(locale="cs")
    await page.goto(served.url("/"))
    assert await page.get_attribute("html", "lang") == "cs"
    assert await page.text_content("h1") == "Nástroje a stránky"
    await page.click("a[hreflang=ru]")
    await page.wait_for_function("document.documentElement.lang === 'ru'")
    await page.goto(served.url("/"))  # the choice is remembered over the browser's language
    assert await page.text_content("h1") == "Инструменты и страницы"


async def test_a_disabled_web_serves_no_pages(site: SiteMaker) -> None:
    served = await site(web={"enabled": False})
    assert (await served.client.get("/")).status == 404
    assert (await served.client.get("/healthz")).status == 200
