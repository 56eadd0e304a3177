"""A real browser for the web pages: Debian's ``chromium`` driven by Playwright for Python.

Playwright's own browser download is not reachable from these machines, so the browser is the system
one (``GATEWAY_TEST_CHROMIUM``, default ``/usr/bin/chromium``; ``.ci/run`` installs the package). The
flags keep a headless Chromium off the network it would otherwise try at every start.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from gateway.core.app import Gateway, build_app
from gateway.core.dice import DiceSource, ScriptedDice
from gateway.core.settings import Settings
from gateway.testing import migrated_vault
from gateway.vault.models import utcnow

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


class Site:
    """A gateway serving its web pages over loopback: ``url(path)``, its ``gateway``, its ``client``."""

    def __init__(self, gateway: Gateway, client: TestClient) -> None:
        self.gateway = gateway
        self.client = client

    def url(self, path: str = "/") -> str:
        return str(self.client.make_url(path))


@pytest.fixture
async def site(vault_url: str) -> AsyncIterator[Callable[..., Awaitable[Site]]]:
    """``await site(web={...}, dice=ScriptedDice([...]), platforms=("web", ...), extra_plugins=[...],
    clock=Clock())``:
    a real gateway (migrated vault, the web adapter and any others asked for) on a loopback port."""
    made: list[Site] = []

    async def make(
        *,
        dice: DiceSource | None = None,
        platforms: tuple[str, ...] = ("web",),
        extra_plugins: list[object] | None = None,
        clock: Callable[[], datetime] = utcnow,
        **sections: Any,
    ) -> Site:
        settings = Settings(vault={"url": vault_url}, **sections)
        gateway = Gateway(
            settings,
            dice=dice or ScriptedDice([]),
            extra_plugins=extra_plugins or [],
            platforms=platforms,
            clock=clock,
        )
        await migrated_vault(vault_url)  # a copy of a migrated vault: Alembic only checks it
        await gateway.upgrade_vault()
        client = TestClient(TestServer(build_app(gateway), host="127.0.0.1"))
        await client.start_server()
        made.append(Site(gateway, client))
        return made[-1]

    yield make
    for served in reversed(made):
        await served.client.close()
