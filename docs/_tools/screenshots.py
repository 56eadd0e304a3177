"""Screenshots of the built docs at desktop and phone width, for a person to look at before a release:
``.venv/bin/python docs/_tools/screenshots.py [OUT]`` (default ``docs/_build/screens``). Builds the site
first (Sphinx, warnings as errors), then opens its pages in Debian's Chromium through Playwright, as the
web tests do (``GATEWAY_TEST_CHROMIUM`` names another binary)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from playwright.async_api import async_playwright

DOCS = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("GATEWAY_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
WIDTHS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
PAGES = {
    "front": "index.html",
    "discord": "running/discord.html",
    "first-session": "players/first-session.html",
    "pravidla": "players/pravidla.html",
}


async def shoot(html: Path, out: Path) -> list[Path]:
    shots = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        for width, viewport in WIDTHS.items():
            context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
            page = await context.new_page()
            for name, path in PAGES.items():
                await page.goto((html / path).as_uri())
                shot = out / f"{name}-{width}.png"
                await page.screenshot(path=str(shot))  # the first screen, as a reader sees it
                shots.append(shot)
            await context.close()
        await browser.close()
    return shots


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS / "_build" / "screens"
    html = DOCS / "_build" / "html"
    subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(DOCS), str(html)], check=True
    )
    out.mkdir(parents=True, exist_ok=True)
    for shot in asyncio.run(shoot(html, out)):
        print(shot)


if __name__ == "__main__":
    main()
