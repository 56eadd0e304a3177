"""The Storyteller log page as rolls: dice drawn as faces with the degree's tone, and its filters by
kind (rolls, or approvals and edits) and by platform."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.core.dice import ScriptedDice
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]


async def test_the_log_draws_rolls_and_filters_by_kind_and_platform(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([10, 7, 1]))
    await say(served, "char new Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, "st approve Mira Vance force", "owner", st=True)
    (rolled,) = await say(served, "roll 3")
    await client_sign_in(served, "sam")
    every = await (await served.client.get("/st/log")).text()
    assert '<span class="die ten">10</span><span class="die">7</span><span class="die one">1</span>' in every
    assert 'class="degree tone-' in every and "approved Mira Vance" in every
    rolls = await (await served.client.get("/st/log?kind=rolls")).text()
    assert rolled.text in rolls and "approved Mira Vance" not in rolls
    lines = await (await served.client.get("/st/log?kind=lines")).text()
    assert rolled.text not in lines and "approved Mira Vance" in lines
    assert 'data-kind="lines"' in lines  # the live rows keep to the filter too (live.js)
    elsewhere = await (await served.client.get("/st/log?platform=discord")).text()
    assert rolled.text not in elsewhere and "approved Mira Vance" not in elsewhere
    terminal = await (await served.client.get("/st/log?platform=console")).text()
    assert rolled.text in terminal and '<option value="console" selected>Terminal</option>' in terminal
