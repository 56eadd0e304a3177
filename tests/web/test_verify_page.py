"""``/r/ID``: the public verify page of a roll says what ``verify ID`` answers in chat, in the
reader's language, finds old 5-letter ids and ``#``-prefixed ones in any case, escapes the roller's
name, and is a 404 page for an unknown id."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from typing import Any

from sqlalchemy import update

from gateway.core.core_messages import say as core_say
from gateway.core.dice import ScriptedDice
from gateway.vault.models import RollLog
from tests.web.conftest import Site
from tests.web.watch import XSS, complaints, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def test_the_page_says_what_verify_answers_in_chat(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(dice=ScriptedDice([10, 7, 3]), platforms=("web", "console"))
    (rolled,) = await say(served.gateway, "roll 3", as_="mira", name=XSS)
    roll_id = rolled.result["id"]  # type: ignore[index]
    await say(served.gateway, "lang cs", as_="reader")
    (chat,) = await say(served.gateway, f"verify {roll_id}", as_="reader")
    page = await new_page(locale="cs")
    trouble = complaints(page)
    await page.goto(served.url(f"/r/{roll_id}"))
    assert await page.text_content("h1") == f"Hod #{roll_id}"
    assert await page.text_content("#line") == chat.text  # the very answer chat gives, in Czech
    assert (await page.text_content("#who") or "").startswith(XSS)  # the name, as text
    assert await page.locator("main img").count() == 0
    assert await page.text_content("#system") == "Nightcap"
    assert trouble == []
    phone = await new_page(phone=True)
    await phone.goto(served.url(f"/r/%23{roll_id.upper()}"))  # "#ID" in capitals, as chat takes it
    assert await phone.text_content("h1") == f"Roll #{roll_id}"
    assert await phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


async def test_old_five_letter_ids_verify_as_ever(site: SiteMaker) -> None:
    served = await site(dice=ScriptedDice([8, 8]), platforms=("web", "console"))
    (rolled,) = await say(served.gateway, "roll 2")
    async with served.gateway.services.vault.transaction() as session:
        await session.exec(  # type: ignore[call-overload]
            update(RollLog).where(RollLog.public_id == rolled.result["id"]).values(public_id="k3f9m")  # type: ignore[index,arg-type]
        )
    response = await served.client.get("/r/K3F9M")
    assert response.status == 200 and "#k3f9m" in await response.text()


async def test_an_unknown_id_is_a_not_found_page_in_the_reader_s_language(site: SiteMaker) -> None:
    served = await site()
    for wanted, locale in (("zzzzzzz", "ru"), ("x" * 40, "en"), (XSS, "en")):
        response = await served.client.get(f"/r/{wanted}", headers={"Accept-Language": locale})
        html = await response.text()
        assert response.status == 404
        assert response.headers["Content-Security-Policy"].startswith("default-src 'self'")
        assert XSS not in html
    russian = await served.client.get("/r/zzzzzzz", headers={"Accept-Language": "ru"})
    assert escape(core_say("ru", "verify.none", id="zzzzzzz")) in await russian.text()
