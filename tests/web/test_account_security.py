"""The signed-in pages' security, over real HTTP on both vaults: CSRF, authorisation on every route,
used and expired links, the rate limit on links, sessions in the vault, ``web logout``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sqlmodel import col, select

from adapters.web.account.tokens import digest
from gateway.testing import Clock
from gateway.vault.models import Audit, Character, WebLink, WebSession
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, client_sign_in, csrf_of, link_path, say

SiteMaker = Callable[..., Awaitable[Site]]


async def _character(served: Site, name: str) -> Character:
    async with served.gateway.services.vault.transaction() as session:
        return (await session.exec(select(Character).where(col(Character.name) == name))).one()


async def _audits(served: Site) -> int:
    async with served.gateway.services.vault.transaction() as session:
        return len((await session.exec(select(Audit))).all())


async def test_the_link_is_private_hashed_single_use_and_signs_in_as_the_chat_identity(
    site: SiteMaker,
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    (reply,) = await say(served, "web")
    assert reply.private and "http://127.0.0.1:8080/login/" in reply.text  # [http] host and port
    path = reply.text.split("8080", 1)[1].split()[0]
    token = path.rsplit("/", 1)[1]
    async with served.gateway.services.vault.transaction() as session:
        (link,) = (await session.exec(select(WebLink))).all()
    assert link.token_hash == digest(token) and link.identity_key == "console:mira"
    preview = await served.client.get(path)  # a chat's link preview opens it: nothing is spent
    assert preview.status == 200 and "gw_session" not in preview.cookies
    signed = await served.client.post(path, allow_redirects=False)
    assert signed.status == 303 and signed.headers["Location"] == "/me"
    cookie = signed.cookies["gw_session"]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and not cookie["secure"]
    async with served.gateway.services.vault.transaction() as session:
        (row,) = (await session.exec(select(WebSession))).all()
    assert row.token_hash == digest(cookie.value) and row.identity_key == "console:mira"
    me = await served.client.get("/me")
    assert me.status == 200 and "Signed in as Mira · Terminal" in await me.text()
    # Used: a clear page and no session, for another browser as well.
    served.client.session.cookie_jar.clear()
    for again in (await served.client.get(path), await served.client.post(path, allow_redirects=False)):
        assert again.status == 410 and "used already or has expired" in await again.text()
        assert "gw_session" not in again.cookies
    assert (await served.client.get("/me")).status == 401


async def test_an_expired_link_and_a_guessed_one_sign_nobody_in(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    clock = Clock()
    served.gateway.services.clock = clock
    path = await link_path(served)
    clock.advance(minutes=10, seconds=1)
    expired = await served.client.post(path, allow_redirects=False)
    assert expired.status == 410 and "gw_session" not in expired.cookies
    guessed = await served.client.post("/login/" + "A" * 43, allow_redirects=False)
    assert guessed.status == 410


async def test_trying_links_is_rate_limited_per_address(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    statuses = [
        (await served.client.post(f"/login/guess{n}", allow_redirects=False)).status for n in range(21)
    ]
    assert statuses[:20] == [410] * 20 and statuses[20] == 429
    path = await link_path(served)  # a real link is refused too while the address is limited
    limited = await served.client.post(path, allow_redirects=False)
    assert limited.status == 429 and "Too many sign-in attempts" in await limited.text()


async def test_a_post_without_its_csrf_token_is_refused_and_changes_nothing(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "char new Mira")
    mira = await _character(served, "Mira")
    await client_sign_in(served)
    before = await _audits(served)
    form = {"v.physical": "3", "w.physical": "1"}  # the sheet form: Physical drawn at 1, now 3
    for data in (form, {**form, "csrf": "0" * 64}):
        refused = await served.client.post(f"/me/c/{mira.id}", data=data)
        assert refused.status == 403 and len((await refused.text()).splitlines()) == 1
    assert (await served.client.post("/me/new", data={"name": "Other"})).status == 403
    cross = await served.client.post(
        f"/me/c/{mira.id}",
        data={**form, "csrf": await csrf_of(served)},
        headers={"Origin": "https://evil.example"},
    )
    assert cross.status == 403
    assert await _audits(served) == before
    assert (await _character(served, "Mira")).sheet == mira.sheet
    done = await served.client.post(f"/me/c/{mira.id}", data={**form, "csrf": await csrf_of(served)})
    assert done.status == 200 and "Physical 3" in await done.text()
    assert await _audits(served) == before + 1


async def test_a_player_sees_nothing_of_another_s_sheet_nor_of_the_storyteller_pages(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "char new Secret Agent", "zed")
    agent = await _character(served, "Secret Agent")
    await client_sign_in(served, "mira")
    csrf = await csrf_of(served)
    for method, path in (
        ("GET", f"/me/c/{agent.id}"),
        ("POST", f"/me/c/{agent.id}"),
        ("GET", "/st"),
        ("GET", f"/st/c/{agent.id}"),
        ("POST", f"/st/c/{agent.id}"),
        ("POST", f"/me/c/{agent.id}/portrait"),
        ("POST", f"/st/c/{agent.id}/portrait"),
        ("GET", f"/c/{agent.id}/portrait"),
        ("GET", "/st/log"),
        ("GET", "/st/log/stream"),
        ("GET", "/st/storytellers"),
        ("POST", "/st/storytellers"),
    ):
        data = {"csrf": csrf, "action": "approve", "identity": "console:mira"}
        response = await served.client.request(method, path, data=data if method == "POST" else None)
        assert response.status in (403, 404), (method, path, response.status)
        assert "Secret Agent" not in await response.text(), path
    assert (await _character(served, "Secret Agent")).status == "creation"
    served.client.session.cookie_jar.clear()
    for path in ("/me", "/me/sessions", "/st", "/st/log/stream"):
        assert (await served.client.get(path)).status == 401, path


async def test_a_storyteller_removed_in_chat_loses_the_pages_on_the_next_request(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:sam", "owner", st=True)
    await client_sign_in(served, "sam")
    assert (await served.client.get("/st")).status == 200
    assert (await served.client.get("/st/log")).status == 200
    (removed,) = await say(served, "st remove console:sam", "owner", st=True)
    assert removed.error is None, removed
    for path in ("/st", "/st/log", "/st/storytellers", "/st/log/stream"):
        assert (await served.client.get(path)).status == 403, path
    assert (await served.client.get("/me")).status == 200  # still a player


async def test_sessions_are_listed_revoked_one_by_one_and_all_ended_by_web_logout(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await client_sign_in(served)
    first = served.client.session.cookie_jar.filter_cookies(served.client.make_url("/"))["gw_session"].value
    served.client.session.cookie_jar.clear()
    await client_sign_in(served)  # a second browser
    listing = await (await served.client.get("/me/sessions")).text()
    async with served.gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(WebSession).order_by(col(WebSession.id)))).all()
    assert len(rows) == 2 and all(f"/me/sessions/{r.id}/revoke" in listing for r in rows)
    revoked = await served.client.post(
        f"/me/sessions/{rows[0].id}/revoke", data={"csrf": await csrf_of(served)}, allow_redirects=False
    )
    assert revoked.status == 303
    assert (await served.client.get("/me")).status == 200  # this browser stays in
    served.client.session.cookie_jar.clear()
    assert (await served.client.get("/me", headers={"Cookie": f"gw_session={first}"})).status == 401
    served.client.session.cookie_jar.clear()
    await client_sign_in(served)
    (ended,) = await say(served, "web logout")
    assert ended.private and ended.text == "Web sessions ended: 2."
    assert (await served.client.get("/me")).status == 401


async def test_linked_identities_share_one_web_account(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "char new Mira")
    (code,) = await say(served, "link")
    await say(served, f"link {code.result['code']}", "mira-laptop")  # type: ignore[index]
    await client_sign_in(served, "mira-laptop")
    mine = await (await served.client.get("/me")).text()
    assert "Mira" in mine and "Mira-Laptop · Terminal" in mine


async def test_a_session_ends_after_session_days_unused_and_cookies_are_secure_under_https(
    site: SiteMaker,
) -> None:
    served = await site(
        extra_plugins=ACCOUNT, web={"public_url": "https://dice.example.org", "session_days": 2}
    )
    clock = Clock()
    served.gateway.services.clock = clock
    (reply,) = await say(served, "web")
    assert "https://dice.example.org/login/" in reply.text
    path = "/login/" + reply.text.split("/login/", 1)[1].split()[0]
    signed = await served.client.post(path, allow_redirects=False)
    assert signed.cookies["gw_session"]["secure"]
    token = signed.cookies["gw_session"].value
    headers = {"Cookie": f"gw_session={token}"}
    served.client.session.cookie_jar.clear()
    clock.advance(days=1)
    assert (await served.client.get("/me", headers=headers)).status == 200
    clock.advance(days=2, minutes=1)
    assert (await served.client.get("/me", headers=headers)).status == 401


async def test_the_link_comes_in_the_reader_s_language(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "lang cs")
    (czech,) = await say(served, "web")
    assert czech.text.startswith("Váš odkaz pro přihlášení na web (platí jednou, po dobu 10 minut;")
    await say(served, "lang ru", "oleg")
    (russian,) = await say(served, "web", "oleg")
    assert russian.text.startswith("Ваша ссылка для входа на сайт")
    (usage,) = await say(served, "web now")
    assert usage.error and "web logout" in usage.text


def test_form_values_become_the_command_words_they_are() -> None:
    from adapters.web.account.sheets import changed_lines
    from gateway.core.parser import tokenize
    from plugins.nightcap.sheet_spec import SHEET

    mira = Character(
        owner_id=1, system="nightcap", name="Mira Vance", name_key="mira vance", status="creation"
    )
    form = {"v.origin": '"Quoted"  Mage \'s', "w.origin": "", "p.0": "Veil", "remove.0": "1"}
    form |= {"new.power": "Shadow Step", "new.tier": "epic", "new.trait": "x y"}
    lines = dict(changed_lines(SHEET, mira, form, storyteller=True))
    assert tokenize(lines["origin"]) == ["st", "set", "Mira Vance", "origin", '"Quoted"', "Mage", "'s"]
    assert tokenize(lines["powers.new"]) == [
        "st",
        "power",
        "Mira Vance",
        "add",
        "Shadow",
        "Step",
        "epic",
        "x y",
    ]
    assert tokenize(lines["powers.0"]) == ["st", "power", "Mira Vance", "remove", "Veil"]
    assert changed_lines(SHEET, mira, {"drop": "tables", "v.nothing": "1"}, storyteller=False) == []


async def test_no_link_is_given_when_the_web_is_off(site: SiteMaker) -> None:
    served = await site(extra_plugins=ACCOUNT, web={"enabled": False})
    (reply,) = await say(served, "web")
    assert (
        reply.error and reply.text == "The web pages are turned off on this gateway ([web] enabled = false)."
    )
    async with served.gateway.services.vault.transaction() as session:
        assert (await session.exec(select(WebLink))).all() == []
