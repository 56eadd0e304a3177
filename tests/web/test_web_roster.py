"""The roster filtered by rule system, the filter kept across the status tabs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.core.types import Channel, Identity, InboundMessage
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]


async def test_the_roster_shows_one_system_when_asked(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "char new Mira Vance")
    await say(served, "system decanter", "owner", st=True, channel="dec")
    message = InboundMessage(
        sender=Identity("console", "cole", "Cole"), channel=Channel("console", "dec"), text="char new Cole"
    )
    await served.gateway.services.handle(message)
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    every = await (await served.client.get("/st?show=all")).text()
    assert "Mira Vance" in every and ">Cole<" in every
    only = await (await served.client.get("/st?show=all&system=decanter")).text()
    assert "Mira Vance" not in only and ">Cole<" in only
    assert '<option value="decanter" selected>' in only and "show=approved&amp;system=decanter" in only
    unknown = await (await served.client.get("/st?show=all&system=nope")).text()
    assert "Mira Vance" in unknown  # an unknown system filters nothing out
