"""Notices: a Storyteller is told of a submitted sheet, a player of an approval and of a return, in
private where they last rolled (through the outbox), and on the web (the player's page, the
Storyteller's badge)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.core.dice import ScriptedDice
from gateway.core.types import Channel, Identity, InboundMessage
from gateway.testing import FakeAdapter
from tests.web.conftest import Site
from tests.web.test_account_flow import _submitted
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]


async def _at_table(served: Site, who: str, text: str) -> None:
    message = InboundMessage(
        sender=Identity("console", who, who.title()), channel=Channel("fake", "table"), text=text
    )
    await served.gateway.services.handle(message)


async def test_submission_approval_and_return_are_told_in_private_and_on_the_web(site: SiteMaker) -> None:
    table = FakeAdapter("fake")
    served = await site(
        extra_plugins=[*ACCOUNT, table.plugin()], platforms=("web", "fake"), dice=ScriptedDice([5] * 20)
    )
    await say(served, "st add console:sam", "owner", st=True)
    await _at_table(served, "sam", "roll 2")  # each last rolled at the table
    await _at_table(served, "mira", "roll 2")
    await _submitted(served, "Mira Vance")
    (submitted,) = await table.wait_for(1)
    assert submitted.target == "table" and submitted.payload["private"]
    assert submitted.payload["recipient"] == "sam"
    assert submitted.text.startswith("Mira Vance has been submitted for approval")
    await client_sign_in(served, "sam")
    roster = await (await served.client.get("/st")).text()
    assert '<span class="badge">1 waiting</span>' in roster
    await say(served, "st approve Mira Vance", "sam", st=True)
    approved = (await table.wait_for(2))[1]
    assert (
        approved.payload["recipient"] == "mira" and approved.text == "Mira Vance is approved: ready to play."
    )
    await say(served, "st unapprove Mira Vance", "sam", st=True)
    returned = (await table.wait_for(3))[2]
    assert returned.payload["recipient"] == "mira" and "returned to creation" in returned.text
    served.client.session.cookie_jar.clear()
    await client_sign_in(served, "mira")
    mine = await (await served.client.get("/me", headers={"Accept-Language": "cs"})).text()
    assert "Postava Mira Vance byla schválena" in mine and "byla vrácena do tvorby" in mine
    assert "badge" not in mine  # a player has no roster to count


async def test_nobody_is_told_of_their_own_change_nor_where_they_never_rolled(site: SiteMaker) -> None:
    table = FakeAdapter("fake")
    served = await site(extra_plugins=[*ACCOUNT, table.plugin()], platforms=("web", "fake"))
    await say(served, "st add console:sam", "owner", st=True)
    await _submitted(served, "Mira Vance")  # sam never rolled anywhere: no channel to tell him in
    await say(served, "st approve Mira Vance", "sam", st=True)  # mira never rolled either
    assert table.texts() == []


async def test_a_setting_turns_each_notice_off(site: SiteMaker) -> None:
    table = FakeAdapter("fake")
    served = await site(
        extra_plugins=[*ACCOUNT, table.plugin()],
        platforms=("web", "fake"),
        dice=ScriptedDice([5] * 20),
        web={"notify_submitted": False},
    )
    await say(served, "st add console:sam", "owner", st=True)
    await _at_table(served, "sam", "roll 2")
    await _at_table(served, "mira", "roll 2")
    await _submitted(served, "Mira Vance")  # not told: turned off
    await say(served, "st approve Mira Vance", "sam", st=True)  # told
    (only,) = await table.wait_for(1)
    assert only.payload["recipient"] == "mira" and "approved" in only.text
