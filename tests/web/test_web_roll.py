"""Rolling from the player's page: the form drawn from the system's ``roll`` declaration, the roll
run through the router as the player, in a channel where they play: logged there (the Storyteller
log sees it), posted to the channel's platform through the outbox, the dice drawn on the page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from adapters.web.account.roll_form import fields
from gateway.core.dice import ScriptedDice
from gateway.core.params import Param
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.features import records
from gateway.testing import FakeAdapter
from gateway.vault.models import Character
from tests.web.conftest import Site
from tests.web.test_account_flow import _id, _submitted
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def _in_table(served: Site, text: str) -> None:
    """``text`` typed by Mira in the fake platform's channel ``table``."""
    message = InboundMessage(
        sender=Identity("console", "mira", "Mira"), channel=Channel("fake", "table"), text=text
    )
    await served.gateway.services.handle(message)


async def test_a_roll_from_the_sheet_reaches_the_table_and_the_log(
    site: SiteMaker, new_page: PageMaker
) -> None:
    table = FakeAdapter("fake")
    served = await site(
        extra_plugins=[*ACCOUNT, table.plugin()],
        platforms=("web", "fake"),
        dice=ScriptedDice([3, 9, 10, 1, 8, 10, 2, 7]),
    )
    await _submitted(served, "Mira Vance")
    await say(served, "st approve Mira Vance", "owner", st=True)
    await _in_table(served, "roll 1")  # she plays at the table (her chat client answered it): offered
    await say(served, "char new Second", "mira")  # another character is the chat's active one now
    page = await new_page()
    await browser_sign_in(served, page)
    mira = await _id(served, "Mira Vance")
    await page.goto(served.url(f"/me/c/{mira}"))
    await page.fill("#roll-pool", "physical")
    await page.select_option("#roll-channel", "fake:table")
    await page.click("#roll-form button[type=submit]")
    await page.wait_for_selector(".replies .roll")
    text = await page.text_content(".reply") or ""
    assert text.startswith("Mira Vance rolls Physical 4: 9 10 1 8") and "#" in text
    faces = await page.locator(".replies .roll .die").all_text_contents()
    assert faces == ["9", "10", "1", "8"]  # Physical 4: four dice, as scripted
    assert await page.locator(".replies .roll .die.ten").count() == 1
    assert await page.locator(".replies .roll .die.one").count() == 1
    (posted,) = await table.wait_for(1)
    assert posted.target == "table" and posted.text == text
    (line,) = await records.stlog_lines(served.gateway.services.vault, limit=1)
    assert line.channel_key == "fake:table" and line.text == text
    # Chat still rolls as the character it had: the web rolled as Mira Vance without switching.
    second = await _id(served, "Second")
    async with served.gateway.services.vault.transaction() as session:
        person = (await session.get(Character, second)).owner_id  # type: ignore[union-attr]
    assert await records.active_character_id(served.gateway.services.vault, person) == second


async def test_a_channel_not_played_in_is_refused(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([5] * 10))
    await _submitted(served, "Mira Vance")
    await say(served, "st approve Mira Vance", "owner", st=True)
    await client_sign_in(served)
    mira = await _id(served, "Mira Vance")
    token = await csrf_of(served, f"/me/c/{mira}")
    forged = await served.client.post(
        f"/me/c/{mira}/roll", data={"csrf": token, "pool": "physical", "channel": "discord:999"}
    )
    assert forged.status == 400
    assert await records.stlog_lines(served.gateway.services.vault, limit=5) == [] or all(
        line.channel_key != "discord:999"
        for line in await records.stlog_lines(served.gateway.services.vault, limit=5)
    )
    logged = await served.client.post(f"/me/c/{mira}/roll", data={"csrf": token, "pool": "physical"})
    assert logged.status == 200 and "Mira Vance rolls Physical" in await logged.text()


def test_the_form_asks_for_the_dice_and_leaves_the_other_side_optional() -> None:
    """The browser refuses to send a form with an empty required field: ``vs AGAINST`` must not be
    one; the roll's own pool must, whether the system declares it required (Nightcap) or leaves
    its handler to word a missing one (Dramatic Systems)."""
    against = Param("against", "pool", "the other side", keyword="vs")
    for required_pool in (True, False):
        pool = Param("pool", "pool", "the dice", required=required_pool)
        shown = {f.name: f.required for f in fields((pool, against), "en")}
        assert shown == {"pool": True, "against": False}
