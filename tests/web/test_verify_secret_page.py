"""``/r/ID`` of a secret roll (issue 30, item 4): anonymous readers and other players learn only that
the roll exists and is secret; its roller and Storytellers, signed in, see the whole page. Such pages
are never kept by a cache."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.core.dice import ScriptedDice
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, say

SiteMaker = Callable[..., Awaitable[Site]]
PLAN = "the hidden plan"


async def secret(served: Site) -> str:
    replies = await say(served, f"roll 4 secret # {PLAN}", "mira")
    [rolled] = [r for r in replies if r.result and r.result.get("id")]
    return str(rolled.result["id"])  # type: ignore[index]


async def test_anonymous_and_other_readers_learn_only_that_it_is_secret(site: SiteMaker) -> None:
    served = await site(dice=ScriptedDice([9, 8, 2, 10]), platforms=("web", "console"), extra_plugins=ACCOUNT)
    roll_id = await secret(served)
    for locale, words in (("en", "secret roll"), ("cs", "tajný hod"), ("ru", "тайный бросок")):
        response = await served.client.get(f"/r/{roll_id}", headers={"Accept-Language": locale})
        html = await response.text()
        assert response.status == 200
        assert words in html and f"#{roll_id}" in html
        assert (
            PLAN not in html
            and "Mira" not in html
            and "console:mira" not in html
            and "console:main" not in html
        )
        assert response.headers["Cache-Control"] == "private, no-store"
    await say(served, "roll 1", "peeker")
    await client_sign_in(served, "peeker")  # signed in, but neither its roller nor a Storyteller
    html = await (await served.client.get(f"/r/{roll_id}")).text()
    assert "secret roll" in html and PLAN not in html and "Mira" not in html


async def test_the_roller_sees_the_whole_page(site: SiteMaker) -> None:
    served = await site(dice=ScriptedDice([9, 8, 2, 10]), platforms=("web", "console"), extra_plugins=ACCOUNT)
    roll_id = await secret(served)
    await client_sign_in(served, "mira")
    response = await served.client.get(f"/r/{roll_id}")
    html = await response.text()
    assert PLAN in html and "console:mira" in html
    assert response.headers["Cache-Control"] == "private, no-store"


async def test_a_storyteller_sees_the_whole_page(site: SiteMaker) -> None:
    served = await site(dice=ScriptedDice([9, 8, 2, 10]), platforms=("web", "console"), extra_plugins=ACCOUNT)
    roll_id = await secret(served)
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    html = await (await served.client.get(f"/r/{roll_id}")).text()
    assert PLAN in html and "console:mira" in html


async def test_an_open_roll_page_may_be_cached_as_before(site: SiteMaker) -> None:
    served = await site(dice=ScriptedDice([9, 8]), platforms=("web", "console"), extra_plugins=ACCOUNT)
    [rolled] = await say(served, "roll 2", "mira")
    response = await served.client.get(f"/r/{rolled.result['id']}")  # type: ignore[index]
    assert response.status == 200 and "console:mira" in await response.text()
    assert "no-store" not in response.headers.get("Cache-Control", "")
