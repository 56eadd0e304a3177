"""Notices, live: a sheet submitted, approved or returned by another gateway process on the same vault
(a console beside ``serve``: SQLite's change signal; PostgreSQL's NOTIFY) updates the Storyteller's
"N waiting" badge and the player's News through ``/me/notices/stream``, and in Chromium the page's
badge and News list change without a reload."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import ClientResponse
from playwright.async_api import expect

from adapters.web.account import LIVE_KEY
from gateway.testing import eventually
from tests.web.conftest import Site
from tests.web.test_account_flow import _submitted
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def _next(stream: ClientResponse, name: str) -> Any:
    """The data of the stream's next event called ``name`` (others and comments skipped)."""

    async def read() -> Any:
        event = ""
        while True:
            line = (await stream.content.readline()).decode().rstrip("\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == name:
                return json.loads(line[6:])
            elif not line:
                event = ""

    return await asyncio.wait_for(read(), 20)


async def _listen(served: Site, who: str) -> ClientResponse:
    served.client.session.cookie_jar.clear()
    await client_sign_in(served, who)
    stream = await served.client.get("/me/notices/stream")
    assert stream.status == 200 and (await stream.content.readline()).startswith(b": live")
    return stream


async def test_another_process_s_submission_and_approval_reach_the_badge_and_the_news(
    site: SiteMaker,
) -> None:
    watching = await site(extra_plugins=ACCOUNT)
    acting = await site(extra_plugins=ACCOUNT, platforms=("console",))
    await say(acting, "st add console:sam", "owner", st=True)
    if watching.gateway.listener is not None:  # PostgreSQL: the notices come by NOTIFY
        await watching.gateway.listener.connected.wait()
    storyteller = await _listen(watching, "sam")
    player = await _listen(watching, "mira")
    await _submitted(acting, "Mira Vance")
    assert await _next(storyteller, "waiting") == {"count": 1, "text": "1 waiting"}
    await say(acting, "st approve Mira Vance", "sam", st=True)
    assert await _next(storyteller, "waiting") == {"count": 0, "text": "0 waiting"}
    news = await _next(player, "news")
    while not news:  # the submission's own refresh (an empty News) may come first
        news = await _next(player, "news")
    assert [(n["kind"], n["text"]) for n in news] == [("approved", "Mira Vance was approved: ready to play.")]
    assert news[0]["href"].startswith("/me/c/")
    unauthorised = await watching.client.get("/me/notices/stream", cookies={"gw_session": "made-up"})
    assert unauthorised.status == 401
    storyteller.close()
    player.close()


async def test_the_pages_badge_and_news_change_without_a_reload(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:sam", "owner", st=True)
    st_page = await new_page()
    await browser_sign_in(served, st_page, "sam")
    await st_page.goto(served.url("/st/log"))
    player_page = await new_page()
    await browser_sign_in(served, player_page, "mira")  # My characters, News hidden: there is none
    await expect(player_page.locator("#news")).to_be_hidden()
    badge = st_page.locator("#roster-link .badge")
    await expect(badge).to_have_count(0)
    live = served.client.app[LIVE_KEY]  # both pages listening before anything happens
    await eventually(lambda: sum(v.view is None for v in live.viewers) == 2)
    await _submitted(served, "Mira Vance")
    await expect(badge).to_have_text("1 waiting")
    await say(served, "st approve Mira Vance", "sam", st=True)
    await expect(badge).to_have_count(0)
    await expect(st_page.locator("#roster-link")).to_have_text("Roster")
    await expect(player_page.locator("#news")).to_be_visible()
    await expect(player_page.locator("#notices li a")).to_have_text(
        ["Mira Vance was approved: ready to play."]
    )
