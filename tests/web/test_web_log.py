"""The Storyteller log page as rolls: dice drawn as faces with the degree's tone, its filters by
character, kind (rolls, or approvals and edits) and platform, and its groups (the hour in the viewer's
zone, or a channel's scene), on the page and in the live stream, which sends only what the view admits."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

from playwright.async_api import expect
from sqlmodel import select

from adapters.web.account import LIVE_KEY
from gateway.core.dice import ScriptedDice
from gateway.testing import Clock
from gateway.vault.models import Character
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, say
from tests.web.test_account_live import _event, _open

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
    assert 'data-stream="/st/log/stream?kind=lines&amp;tz=' in lines  # the live rows keep to it too
    elsewhere = await (await served.client.get("/st/log?platform=discord")).text()
    assert rolled.text not in elsewhere and "approved Mira Vance" not in elsewhere
    terminal = await (await served.client.get("/st/log?platform=console")).text()
    assert rolled.text in terminal and '<option value="console" selected>Terminal</option>' in terminal


def _groups(html: str) -> list[tuple[str, list[str]]]:
    """(heading, the rows' lines of text) of each group, top to bottom."""
    found = []
    for part in html.split('<li class="group"')[1:]:
        heading = re.search(r"<h2>(.*?)</h2>", part, re.S).group(1)  # type: ignore[union-attr]
        heading = re.sub(r"<[^>]+>", "", heading).strip()
        found.append((heading, re.findall(r'<p class="line">(.*?)</p>', part, re.S)))
    return found


async def _ids(served: Site) -> dict[str, int]:
    async with served.gateway.services.vault.transaction() as session:
        return {c.name: c.id for c in (await session.exec(select(Character))).all() if c.id is not None}


async def test_rows_are_grouped_by_hour_in_the_zone_asked_for_and_filtered_by_character(
    site: SiteMaker,
) -> None:
    clock = Clock(datetime(2026, 11, 30, 20, 50, tzinfo=UTC))
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 5, 10, 8, 2, 3]), clock=clock)
    await say(served, "char new Mira")
    await say(served, "char new Cole", "cole")
    await say(served, "st add console:sam", "owner", st=True)
    for name in ("Mira", "Cole"):
        await say(served, f"st approve {name} force", "owner", st=True)
    clock.advance(minutes=1)
    (mira,) = await say(served, "roll physical")
    clock.advance(minutes=19)  # 21:10: the next hour
    (cole,) = await say(served, "roll physical", "cole")
    await client_sign_in(served, "sam")
    page = await (await served.client.get("/st/log?tz=UTC")).text()
    assert [(h, len(rows)) for h, rows in _groups(page)] == [
        ("2026-11-30 21:00–22:00 UTC", 1),
        ("2026-11-30 20:00–21:00 UTC", 4),  # two approvals, st add and Mira's roll, newest first
    ]
    assert _groups(page)[0][1] == [cole.text] and _groups(page)[1][1][0] == mira.text
    prague = await (await served.client.get("/st/log?tz=Europe/Prague")).text()
    assert [h for h, _ in _groups(prague)] == ["2026-11-30 22:00–23:00 CET", "2026-11-30 21:00–22:00 CET"]
    assert '<time datetime="2026-11-30T22:10:00+01:00">' in prague  # the rows' times in that zone too
    ids = await _ids(served)
    assert f'<option value="{ids["Cole"]}">Cole</option>' in page  # the characters in the log
    coles = await (await served.client.get(f"/st/log?character={ids['Cole']}&kind=rolls&tz=UTC")).text()
    assert _groups(coles) == [("2026-11-30 21:00–22:00 UTC", [cole.text])]
    assert f'<option value="{ids["Cole"]}" selected>Cole</option>' in coles
    assert f'data-stream="/st/log/stream?character={ids["Cole"]}&amp;kind=rolls&amp;tz=UTC"' in coles
    by_name = await (await served.client.get("/st/log?name=Cole&system=nightcap&tz=UTC")).text()
    assert _groups(by_name)[0][1] == [cole.text] and mira.text not in by_name  # a profile's link
    unknown = await (await served.client.get("/st/log?tz=Mars/Olympus&group=weekly&kind=x")).text()
    assert len(_groups(unknown)) == 2  # an unknown view is the default one, never an error


async def test_rows_are_grouped_by_channel_and_scene(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9, 2, 2, 2, 7, 7, 7, 4, 4, 4]))
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, "system dramatic", "sam", st=True, channel="table")
    (first,) = await say(served, "roll 3", "sam", channel="table")
    (elsewhere,) = await say(served, "roll 3", "sam")  # the Nightcap channel: no scenes, one group
    (ended,) = await say(served, "* * *", "sam", st=True, channel="table")
    (second,) = await say(served, "roll 3", "sam", channel="table")
    await client_sign_in(served, "sam")
    page = await (await served.client.get("/st/log?group=scene")).text()
    groups = _groups(page)  # the group with the newest row first
    assert groups[0] == ("table · Terminal", [second.text])  # the new scene
    assert groups[1][0] == "table · Terminal scene ended" and groups[1][1][:2] == [ended.text, first.text]
    assert groups[2][0] == "main · Terminal" and groups[2][1][0] == elsewhere.text


async def test_the_stream_sends_only_what_the_view_admits_with_its_groups(site: SiteMaker) -> None:
    clock = Clock(datetime(2026, 11, 30, 20, 59, tzinfo=UTC))
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9, 4, 4, 4]), clock=clock)
    await say(served, "char new Mira")
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    lines = await _open(served, "?kind=lines&tz=Asia/Kolkata")
    rolls = await _open(served, "?kind=rolls&platform=console&tz=UTC")
    discord = await _open(served, "?platform=discord")
    (rolled,) = await say(served, "roll 3")
    clock.advance(minutes=2)
    await say(served, "st approve Mira force", "owner", st=True)
    got = await _event(rolls)
    assert got["id"] == rolled.result["id"] and got["channel"] == "console:main"  # type: ignore[index]
    assert (got["hour"], got["hour_heading"]) == ("2026-11-30T20:00:00+00:00", "2026-11-30 20:00–21:00 UTC")
    assert got["channel_label"] == "main · Terminal"
    approved = await _event(lines)  # the roll was not sent to it: the approval is its first event
    assert approved["id"] is None and "approved Mira" in approved["text"]
    assert approved["hour_heading"] == "2026-12-01 02:00–03:00 IST" and approved["at"].endswith("+05:30")
    await say(served, "roll 3")
    assert (await _event(rolls))["id"] is not None  # the approval was not sent to the rolls' view
    # Each row is put on every admitting viewer's queue at once: Discord's got none of the terminal's.
    (only_discord,) = [v for v in served.client.app[LIVE_KEY].viewers if v.view.platform == "discord"]
    assert only_discord.queue.empty()
    for stream in (lines, rolls, discord):
        stream.close()


async def test_live_rows_end_a_scene_and_open_the_next_in_the_browser(
    site: SiteMaker, new_page: Callable[..., Awaitable[Any]]
) -> None:
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 9, 9, 2, 2, 2]))
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, "system dramatic", "sam", st=True, channel="table")
    (first,) = await say(served, "roll 3", "sam", channel="table")
    page = await new_page()
    await browser_sign_in(served, page, "sam")
    await page.goto(served.url("/st/log?group=scene&kind=&tz=UTC"))
    await expect(page.locator("#live-state")).to_have_attribute("data-state", "live")
    headings = page.locator("#live-log > li.group > h2")
    await expect(headings.first).to_have_text("table · Terminal")
    (ended,) = await say(served, "* * *", "sam", st=True, channel="table")
    await expect(headings.first).to_have_text("table · Terminal scene ended")
    (second,) = await say(served, "roll 3", "sam", channel="table")
    await expect(headings).to_have_text(
        ["table · Terminal", "table · Terminal scene ended", "main · Terminal"]
    )
    groups = page.locator("#live-log > li.group")
    await expect(groups.nth(0).locator("p.line")).to_have_text([second.text])
    await expect(groups.nth(1).locator("p.line")).to_have_text([ended.text, first.text])
