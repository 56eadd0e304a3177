"""Shared by the signed-in pages' tests: a person typing in chat, a sign-in link from ``web``, a
browser or HTTP client signed in with it. (No tests here.)"""

from __future__ import annotations

import re
from importlib.metadata import entry_points
from typing import Any

from adapters.web import commands as account_plugin
from gateway.core.types import Channel, Identity, InboundMessage, Reply
from tests.web.conftest import Site

# The ``web`` command's plugin, unless the installed entry point registers it already.
ACCOUNT: list[object] = (
    [] if any(e.name == "web_account" for e in entry_points(group="gateway.plugins")) else [account_plugin]
)
LINK = re.compile(r"https?://\S+(/login/[A-Za-z0-9_\-]+)")
CSRF = re.compile(r'name="csrf" value="([0-9a-f]+)"')
SCREENS = "/work/screens"


async def say(
    served: Site, text: str, as_: str = "mira", *, st: bool = False, channel: str = "main"
) -> list[Reply]:
    """``text`` typed in the console channel ``channel`` by ``console:<as_>``."""
    message = InboundMessage(
        sender=Identity("console", as_, as_.title()),
        channel=Channel("console", channel),
        text=text,
        roles=frozenset({"storyteller"}) if st else frozenset(),
    )
    return await served.gateway.services.handle(message)


async def link_path(served: Site, as_: str = "mira") -> str:
    """The path of a fresh sign-in link ``web`` gave ``as_`` (the reply is private)."""
    (reply,) = await say(served, "web", as_)
    assert reply.private and reply.error is None, reply
    found = LINK.search(reply.text)
    assert found, reply.text
    return found.group(1)


async def browser_sign_in(served: Site, page: Any, as_: str = "mira") -> None:
    await page.goto(served.url(await link_path(served, as_)))
    await page.click("#sign-in")
    await page.wait_for_url("**/me")


async def client_sign_in(served: Site, as_: str = "mira") -> None:
    """Signs ``served.client`` in (its cookie jar keeps the session)."""
    response = await served.client.post(await link_path(served, as_), allow_redirects=False)
    assert response.status == 303, await response.text()


async def csrf_of(served: Site, path: str = "/me") -> str:
    page = await served.client.get(path)
    found = CSRF.search(await page.text())
    assert found, await page.text()
    return found.group(1)
