"""The README's pictures, taken in Debian's Chromium from a real gateway on a fresh vault:
``.venv/bin/python docs/_tools/readme_screens.py [OUT]`` (default ``docs/_static/screens``).

A roll typed on IRC (``!roll``) and one sent from Discord (``/roll``, which arrives bare), as they
reach the router, each shown by its public verify page, and a player's sheet on the web pages after
signing in with the link ``web`` gives. Dice are scripted; roll ids and times differ from run to run."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import tempfile
from pathlib import Path

from aiohttp.test_utils import TestClient, TestServer
from playwright.async_api import async_playwright

from gateway.core.app import Gateway, build_app
from gateway.core.dice import ScriptedDice
from gateway.core.settings import Settings
from gateway.core.types import Channel, Identity, InboundMessage, Reply

OUT = Path(__file__).resolve().parents[1] / "_static" / "screens"
CHROMIUM = os.environ.get("GATEWAY_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
VIEWPORT = {"width": 900, "height": 640}
LINK = re.compile(r"https?://\S+(/login/[A-Za-z0-9_\-]+)")
SHEET = [
    "char new Mira",
    "trait physical 3",
    "trait mental 2",
    "trait social 2",
    "trait spirit 3",
    "power add Shadowstep basic physical",
    "power add Veil adept mental",
    "char set origin Harbour district",
    "char submit",
]


async def say(gateway: Gateway, text: str, sender: Identity, channel: Channel, st: bool = False) -> Reply:
    message = InboundMessage(
        sender=sender,
        channel=channel,
        text=text,
        roles=frozenset({"storyteller"}) if st else frozenset(),
        prefixed=channel.platform == "irc",  # a chat line; Discord sends slash commands, bare
    )
    replies = await gateway.services.handle(message)
    return replies[0]


async def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            vault={"url": f"sqlite+aiosqlite:///{folder}/vault.db"}, gateway={"timezone": "UTC"}
        )
        gateway = Gateway(settings, dice=ScriptedDice([9, 7, 2, 10, 8, 1, 3]), platforms=("web",))
        await gateway.upgrade_vault()
        client = TestClient(TestServer(build_app(gateway), host="127.0.0.1"))
        await client.start_server()
        try:
            mira = Identity("console", "mira", "Mira")
            console = Channel("console", "main")
            for line in SHEET:
                await say(gateway, line, mira, console)
            await say(gateway, "st approve Mira", Identity("console", "gm", "Gm"), console, st=True)
            on_irc = await say(
                gateway,
                "!roll 4 # picking the lock",
                Identity("irc", "libera/mira", "mira"),
                Channel("irc", "libera/#nightcap"),
            )
            on_discord = await say(
                gateway, "roll 3", Identity("discord", "2051", "Ash"), Channel("discord", "1180/1181")
            )
            link = LINK.search((await say(gateway, "web", mira, console)).text)
            assert link, "no sign-in link"
            pages = {
                "roll-irc": f"/r/{on_irc.result['id']}",  # type: ignore[index]
                "roll-discord": f"/r/{on_discord.result['id']}",  # type: ignore[index]
            }
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=FLAGS
                )
                context = await browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
                page = await context.new_page()
                for name, path in pages.items():
                    await page.goto(str(client.make_url(path)))
                    await page.screenshot(path=str(out / f"{name}.png"))
                await page.goto(str(client.make_url(link.group(1))))
                await page.click("#sign-in")
                await page.wait_for_url("**/me")
                await page.click("a[href^='/me/c/']")
                await page.wait_for_selector(".sheet")
                await page.screenshot(path=str(out / "sheet.png"))
                await browser.close()
        finally:
            await client.close()
            await gateway.stop()
    print(f"screenshots in {out}")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT))
