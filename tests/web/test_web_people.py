"""People shown as people: names with the platform as a label, Manage STs picking from everyone the
gateway has met, sessions named by browser and system, and the sheet-export button only when an
export is set up."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from adapters.web.agents import device
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]

AGENTS = {
    # Real headers of each family: the order of the rules is what these pin down.
    "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0": ("Firefox", "Linux"),
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0": ("Edge", "Windows"),
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.1 Safari/605.1.15": ("Safari", "macOS"),
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/18.1 Mobile/15E148 Safari/604.1": ("Safari", "iPhone"),
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.6778.81 Mobile Safari/537.36": ("Chrome", "Android"),
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0": ("Opera", "Windows"),
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "FxiOS/133.0 Mobile/15E148 Safari/605.1.15": ("Firefox", "iPhone"),
    "curl/8.5.0": ("curl", None),
    "": (None, None),
}


@pytest.mark.parametrize(("agent", "expected"), AGENTS.items())
def test_a_user_agent_is_named_by_browser_and_system(agent: str, expected: tuple[str, str]) -> None:
    assert device(agent) == expected


async def test_the_sessions_page_names_the_browser_and_the_account(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    firefox = next(agent for agent, named in AGENTS.items() if named == ("Firefox", "Linux"))
    served.client.session.headers["User-Agent"] = firefox
    await client_sign_in(served)
    for locale, shown in (("en", "Firefox on Linux"), ("cs", "Firefox, Linux")):
        page = await (await served.client.get("/me/sessions", headers={"Accept-Language": locale})).text()
        assert f">{shown}</span>" in page and "Mira · Termin" in page and "console:mira" not in page


async def test_manage_sts_picks_a_person_seen_and_shows_names(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:boss", "owner", st=True)
    await say(served, "help", "sam")  # seen: offered in the picker
    await client_sign_in(served, "boss")
    page = await (await served.client.get("/st/storytellers")).text()
    assert '<option value="console:sam">Sam · Terminal</option>' in page
    assert "Remove Boss · Terminal" in page and "console:boss" not in page.replace('value="console:boss"', "")
    token = await csrf_of(served, "/st/storytellers")
    added = await served.client.post(
        "/st/storytellers", data={"csrf": token, "action": "add", "identity": "console:sam"}
    )
    after = await added.text()
    assert 'id="storytellers"' in after and "Remove Sam · Terminal" in after
    assert '<option value="console:sam">' not in after  # a Storyteller now: not offered again


async def test_the_export_button_shows_only_when_an_export_is_set_up(site: SiteMaker) -> None:
    for section, shown in (({}, False), ({"nightcap": {"sheet_export": "discord:sheets"}}, True)):
        served = await site(extra_plugins=ACCOUNT, **section)
        await say(served, "char new Mira Vance")
        await say(served, "st add console:sam", "owner", st=True)
        await client_sign_in(served, "sam")
        roster = await (await served.client.get("/st?show=all")).text()
        path = roster.split('href="/st/c/', 1)[1].split('"', 1)[0]
        profile = await (await served.client.get(f"/st/c/{path}")).text()
        assert ("Send to Discord" in profile) is shown
        assert "To Discord" not in profile.replace("Send to Discord", "")
        # The button's action posted by hand: refused with nothing to send to, else run as chat's.
        token = await csrf_of(served, f"/st/c/{path}")
        sent = await served.client.post(f"/st/c/{path}", data={"csrf": token, "action": "export"})
        assert sent.status == (200 if shown else 400)
        assert ("st.export" in await sent.text()) is shown  # the audit row in the history
