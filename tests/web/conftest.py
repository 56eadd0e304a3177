"""A real browser for the web pages: Debian's ``chromium`` driven by Playwright for Python.

Playwright's own browser download is not reachable from these machines, so the browser is the system
one (``GATEWAY_TEST_CHROMIUM``, default ``/usr/bin/chromium``; ``.ci/run`` installs the package). The
flags keep a headless Chromium off the network it would otherwise try at every start.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

CHROMIUM = os.environ.get("GATEWAY_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def _require_chromium() -> None:
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.fail(f"no Chromium at {CHROMIUM}: install Debian's chromium or set GATEWAY_TEST_CHROMIUM")


@pytest.fixture
async def browser() -> AsyncIterator[object]:
    """One headless Chromium per test (a fresh profile, so no cookie crosses tests)."""
    from playwright.async_api import async_playwright

    _require_chromium()
    async with async_playwright() as playwright:
        chromium = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield chromium
        finally:
            await chromium.close()


@pytest.fixture
async def new_page(browser: object) -> AsyncIterator[Callable[..., Awaitable[object]]]:
    """``await new_page(phone=False, locale="en")``: a page in its own browser context (its own cookies),
    at desktop or phone width, with the Accept-Language of ``locale``."""
    contexts: list[object] = []

    async def make(*, phone: bool = False, locale: str = "en") -> object:
        context = await browser.new_context(  # type: ignore[attr-defined]
            viewport=PHONE if phone else DESKTOP,
            locale=locale,
            extra_http_headers={"Accept-Language": locale},
        )
        contexts.append(context)
        return await context.new_page()

    yield make
    for context in contexts:
        await context.close()  # type: ignore[attr-defined]
