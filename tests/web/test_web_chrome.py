"""The site's frame: error pages a person can read (404, 405, 500) in the site's layout and language,
the favicon, and creating a character on the web leaving chat's active character alone."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlmodel import select

from gateway.features import records
from gateway.vault.models import IdentityLink
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
HTML = {"Accept": "text/html,application/xhtml+xml"}


async def test_unknown_addresses_and_wrong_methods_get_a_page_in_the_frame(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    missing = await served.client.get("/no/such/page", headers={**HTML, "Accept-Language": "cs"})
    body = await missing.text()
    assert missing.status == 404 and "Stránka nenalezena" in body
    assert '<header class="site">' in body and 'href="/static/favicon.svg"' in body
    wrong = await served.client.get("/logout", headers=HTML)  # a POST-only address, visited
    assert wrong.status == 405 and "not for opening directly" in await wrong.text()
    assert "POST" in wrong.headers["Allow"]
    # An API client (no HTML asked for) keeps the plain answer.
    plain = await served.client.get("/no/such/page", headers={"Accept": "application/json"})
    assert plain.status == 404 and "<header" not in await plain.text()
    icon = await served.client.get("/favicon.ico")
    assert icon.status == 200 and icon.content_type == "image/svg+xml"


async def test_a_page_that_fails_shows_the_500_page(site: SiteMaker, monkeypatch: pytest.MonkeyPatch) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await client_sign_in(served)

    async def broken(*args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(records, "active_character_id", broken)  # /me reads it
    failed = await served.client.get("/me", headers={**HTML, "Accept-Language": "ru"})
    body = await failed.text()
    assert failed.status == 500 and "Ошибка на нашей стороне" in body and "a bug" not in body


async def test_creating_on_the_web_keeps_the_chat_character_and_offers_the_new_one(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT, platforms=("web", "console"))
    await say(served, "char new Old Hand")
    person = await _person(served)
    before = await records.active_character_id(served.gateway.services.vault, person)
    assert before is not None
    page = await new_page()
    await browser_sign_in(served, page)
    await page.fill("#new-name", "New Face")
    await page.click("#new-character button[type=submit]")
    await page.wait_for_url("**/me/c/*?made=1")
    assert "New Face is created" in (await page.text_content(".replies") or "")
    assert await records.active_character_id(served.gateway.services.vault, person) == before
    (rolled,) = await say(served, "char list")
    assert "Old Hand" in rolled.text
    await page.reload()  # the page, again: nothing created twice
    await page.goto(served.url("/me/new"))  # the form's address, visited: the list, not a bare 405
    assert page.url.endswith("/me")
    assert await page.locator("ul.characters li").count() == 2
    await page.go_back()
    await page.click("#play-offer button")
    await page.wait_for_url("**playing=1")
    assert "New Face is now your character in chat" in (await page.text_content(".replies") or "")
    assert await page.locator("#play-offer").count() == 0
    assert await records.active_character_id(served.gateway.services.vault, person) != before


async def test_a_refused_creation_stays_on_the_form_with_the_reason(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await client_sign_in(served)
    csrf = await csrf_of(served)
    refused = await served.client.post("/me/new", data={"csrf": csrf, "name": " "}, allow_redirects=False)
    assert refused.status == 200 and 'class="reply error"' in await refused.text()


async def _person(served: Site) -> int:
    async with served.gateway.services.vault.transaction() as session:
        found = (await session.exec(select(IdentityLink).where(IdentityLink.key == "console:mira"))).one()
        assert found.person_id is not None
        return found.person_id
