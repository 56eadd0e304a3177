"""Screenshots of every public tool page and a verify page, at desktop and phone width, for a person
to look at: ``python -m tests.web.screens [DIR]`` (default /work/screens). A real gateway on a fresh
SQLite vault in a temporary folder, over loopback; Debian's Chromium as in the browser tests."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import async_playwright

from gateway.core.app import Gateway, build_app
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from tests.web.conftest import CHROMIUM, DESKTOP, FLAGS, PHONE
from tests.web.watch import say

PAGES = {
    "tools-index": "/tools/",
    "budget": "/tools/budget?physical=4&mental=3&social=2&spirit=2&p0_name=Shadow+Step&p0_tier=adept"
    "&p1_name=Storm+Call&p1_tier=advanced",
    "roller": "/tools/roller?pool=4&mod=1&opp=3&their=0&roll=1",
    "decanter": "/tools/decanter?pool=5&dc=3&quality=1",
    "dramatic": "/tools/dramatic?pool=5&difficulty=7&specialty=1",
    "roller-house": "/tools/roller?pool=5&house.tens_double=off&house.ones_subtract=off",
    "dramatic-house": "/tools/dramatic?pool=5&difficulty=6&specialty=0&house.tens_explode=always"
    "&house.botch=off",
    "pravidla": "/tools/pravidla?pool=6&target=5&need=2",
    "nightwanderers": "/tools/nightwanderers?pool=4&difficulty=4&need=1",
    "verify-missing": "/r/zzzzzzz",
}


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(vault={"url": f"sqlite+aiosqlite:///{folder}/vault.db"})
        gateway = Gateway(settings, dice=ScriptedDice([10, 7, 3, 1, 8] * 40), platforms=("web", "console"))
        await gateway.upgrade_vault()
        client = TestClient(TestServer(build_app(gateway), host="127.0.0.1"))
        await client.start_server()
        try:
            (rolled,) = await say(gateway, "roll 3 vs 2", name="Mira <b>not bold</b>")
            pages = {**PAGES, "verify": f"/r/{rolled.result['id']}"}  # type: ignore[index]
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=FLAGS
                )
                for width, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                    for locale in ("en", "cs") if width == "desktop" else ("en", "ru"):
                        context = await browser.new_context(viewport=viewport, locale=locale)
                        page = await context.new_page()
                        for name, path in pages.items():
                            await page.goto(str(client.make_url(path)))
                            shot = out / f"{name}-{width}-{locale}.png"
                            await page.screenshot(path=str(shot), full_page=True)
                        await context.close()
                await browser.close()
        finally:
            await client.close()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/screens")))
