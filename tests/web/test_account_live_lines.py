"""The live Storyteller log shows the lines that are not rolls (approvals, ST edits, house rules) as
they commit (``StlogWritten``): in a real browser without a reload, and on PostgreSQL from another
gateway process."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from tests.web.conftest import Site
from tests.web.test_account_flow import _id, _submitted
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, say
from tests.web.test_account_live import _event, _open

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def test_an_approval_in_one_tab_shows_on_the_live_log_in_another_without_reload(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await _submitted(served, "Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    log = await new_page()
    await browser_sign_in(served, log, "sam")
    await log.goto(served.url("/st/log"))
    await log.wait_for_selector("#live-state[data-state=live]")
    profile = await log.context.new_page()  # a second tab of the same browser
    await profile.goto(served.url(f"/st/c/{await _id(served, 'Mira Vance')}"))
    await profile.click("#action-approve")
    started = time.monotonic()
    line = log.locator("#live-log li.new", has_text="approved Mira Vance")
    await line.wait_for(timeout=2_000)
    assert time.monotonic() - started < 2.0
    assert await line.locator("a").count() == 0  # no roll, no verify link
    assert (await line.locator("time").get_attribute("datetime") or "").endswith(("-08:00", "-07:00"))
    await say(served, "house set tens_double off", "sam", st=True)  # a house rule, typed in chat
    await log.locator("#live-log li.new", has_text="tens_double").wait_for(timeout=2_000)
    await log.screenshot(path="/work/screens/account-live-lines-desktop.png", full_page=True)


async def test_the_stream_filters_lines_by_character(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await _submitted(served, "Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    other = await _open(served, "?character=999999")
    mine = await _open(served, f"?character={await _id(served, 'Mira Vance')}")
    await say(served, "house set tens_double off", "sam", st=True)  # no character: not Mira's
    await say(served, "st approve Mira Vance", "sam", st=True)
    line = await _event(mine)
    assert line["id"] is None and line["kind"] == "approve" and "approved Mira Vance" in line["text"]
    with pytest.raises(TimeoutError):
        await _event(other, timeout=0.5)
    mine.close()
    other.close()


@pytest.mark.postgres
async def test_an_approval_committed_by_another_gateway_process_reaches_the_stream(
    site: SiteMaker, vault_url: str
) -> None:
    if not vault_url.startswith("postgresql"):
        pytest.skip("one SQLite vault is one process: no other process to hear from")
    watching = await site(extra_plugins=ACCOUNT)
    approving = await site(extra_plugins=ACCOUNT)
    await _submitted(approving, "Mira Vance")
    await say(approving, "st add console:sam", "owner", st=True)
    await client_sign_in(watching, "sam")
    await watching.gateway.listener.connected.wait()  # type: ignore[union-attr]
    stream = await _open(watching)
    await say(approving, "st approve Mira Vance", "sam", st=True)
    line = await _event(stream)
    assert line["kind"] == "approve" and "approved Mira Vance" in line["text"]
    stream.close()
