"""``/me/macros`` over real HTTP on both vaults and in a real browser: the list is ``macro list``'s
(a macro added in chat is there), add / remove / run are the chat commands run as the signed-in
identity (chat's refusals), every POST needs its CSRF token."""

from __future__ import annotations

import html
import re
from collections.abc import Awaitable, Callable
from typing import Any

from gateway.core.dice import ScriptedDice
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, SCREENS, browser_sign_in, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def _post(served: Site, **form: str) -> tuple[int, str]:
    token = await csrf_of(served, "/me/macros")
    response = await served.client.post("/me/macros", data={"csrf": token, "system": "nightcap", **form})
    return response.status, html.unescape(await response.text())


def _replies(page: str) -> list[str]:
    return re.findall(r'<p class="reply[^"]*"[^>]*>(.*?)</p>', page, re.DOTALL)


async def test_macros_are_listed_added_run_and_removed_as_in_chat(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9, 1, 1]))
    (added,) = await say(served, "macro add hit = roll {1}")  # typed in chat: the person's, seen here
    assert added.error is None, added
    await client_sign_in(served)
    listed = html.unescape(await (await served.client.get("/me/macros")).text())
    assert "!hit" in listed and "roll {1}" in listed
    status, page = await _post(served, action="run", name="hit", args="3")
    assert status == 200 and "rolls" in " ".join(_replies(page)), _replies(page)
    status, page = await _post(served, action="add", name="two", body="roll {n=2}")
    assert status == 200 and "!two" in page and "roll {n=2}" in page
    (chat_list,) = await say(served, "macro list")  # the web's macro is the person's in chat too
    assert "two" in chat_list.text
    status, page = await _post(served, action="add", name="bad", body="roll {")
    (refused,) = _replies(page)
    assert 'class="reply error"' in page and "!bad" not in page, refused
    status, page = await _post(served, action="remove", name="hit")
    assert "!hit" not in page and "!two" in page
    status, page = await _post(served, action="remove", name="hit")  # chat's line: no such macro
    assert 'class="reply error"' in page


async def test_a_macro_post_without_its_csrf_token_is_refused(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await client_sign_in(served)
    response = await served.client.post("/me/macros", data={"action": "add", "name": "x", "body": "roll 1"})
    assert response.status == 403
    (listed,) = await say(served, "macro list")
    assert listed.result is not None and listed.result["macros"] == []


async def test_the_macros_page_in_a_browser(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9, 9, 9, 9]))
    await say(served, "macro add hit = roll {1}")
    await say(served, "macro add soak = roll {dice=2} difficulty {1}")
    for locale in ("en", "cs", "ru"):
        page = await new_page(locale=locale)
        await browser_sign_in(served, page)
        await page.click("#my-macros")
        await page.wait_for_selector("#macro-list")
        if locale == "en":
            await page.fill("li[data-name=hit] input[name=args]", "3")
            await page.click("li[data-name=hit] button[value=run]")
            await page.wait_for_selector(".replies .reply")
            assert "rolls" in ((await page.text_content(".replies")) or "")
        await page.screenshot(path=f"{SCREENS}/account-macros-{locale}-desktop.png", full_page=True)
        phone = await new_page(phone=True, locale=locale)
        await phone.context.add_cookies(await page.context.cookies())
        await phone.goto(served.url("/me/macros"))
        assert await phone.get_attribute("html", "lang") == locale
        await phone.screenshot(path=f"{SCREENS}/account-macros-{locale}-phone.png", full_page=True)
