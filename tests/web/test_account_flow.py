"""The signed-in pages in a real browser, as people use them: a link from chat, the creation editor,
a Storyteller approving from the roster, a roll typed in chat reaching the live log."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlmodel import col, select

from gateway.core.dice import ScriptedDice
from gateway.testing import FakeAdapter
from gateway.vault.models import Audit, Character
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, SCREENS, browser_sign_in, link_path, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def shoot(page: Any, name: str, new_page: PageMaker, served: Site, *, cookies: bool = True) -> None:
    """The page at desktop width now, and the same address at phone width (same cookies)."""
    await page.screenshot(path=f"{SCREENS}/account-{name}-desktop.png", full_page=True)
    phone = await new_page(phone=True)
    if cookies:
        await phone.context.add_cookies(await page.context.cookies())
    await phone.goto(page.url)
    await phone.screenshot(path=f"{SCREENS}/account-{name}-phone.png", full_page=True)
    await phone.close()


async def test_a_player_signs_in_from_chat_builds_a_sheet_and_submits_it(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    page = await new_page()
    await page.goto(served.url(await link_path(served)))
    assert await page.text_content("h1") == "Sign in"
    await shoot(page, "login", new_page, served, cookies=False)
    await page.click("#sign-in")
    await page.wait_for_url("**/me")
    cookie = next(c for c in await page.context.cookies() if c["name"] == "gw_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Lax" and not cookie["secure"]

    await page.fill("#new-name", "Mira Vance")
    await page.click("text=Create")
    await shoot(page, "mine", new_page, served)
    await page.click("text=Sessions")
    await page.wait_for_selector("table.sessions")
    await shoot(page, "sessions", new_page, served)
    await page.click("text=My characters")
    await page.click("a:text('Mira Vance')")
    await page.wait_for_selector("#sheet-editor")

    # One form for the whole sheet: each changed field is its chat command, a refusal beside it.
    for trait, value in (("physical", "4"), ("mental", "3"), ("social", "4"), ("spirit", "2")):
        await page.fill(f"#f-{trait}", value)
    await page.fill("#f-origin", "Mage")
    await page.fill("#new-power", "Shadow Step")
    await page.select_option("#new-tier", "adept")
    await page.select_option("#new-trait", "physical")
    await page.click("#save-sheet")
    await page.wait_for_selector("#error-social")
    said = " ".join(await page.locator(".reply:not(.error)").all_text_contents())
    assert "Mira Vance: Physical 4. 3 trait points left." in said and "Origin is now Mage" in said
    refused = await page.text_content("#error-social")  # the book: only one trait at 4
    assert refused == "Social 4 would be a second trait at 4: Physical is already 4."
    assert await page.get_attribute("#f-social", "aria-invalid") == "true"
    await page.fill("#f-social", "1")
    await page.fill("#new-power", "Glow")
    await page.select_option("#new-tier", "basic")
    await page.select_option("#new-trait", "spirit")
    await page.click("#save-sheet")
    await page.wait_for_selector(".sheet-field[data-key=powers] li:has-text('Glow')")
    await shoot(page, "editor", new_page, served)
    await page.click("#action-submit")
    assert "submitted" in ((await page.text_content(".reply")) or "")
    assert await page.text_content("#sheet-heading .status") == "submitted"

    # The same chat commands wrote the same audit rows, as the chat identity.
    async with served.gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(Audit.action, Audit.actor_key).order_by(col(Audit.id)))).all()
    assert ("char.new", "console:mira") in rows and ("char.submit", "console:mira") in rows
    assert {key for _, key in rows} == {"console:mira"}
    # And chat sees the sheet as the web left it.
    (listed,) = await say(served, "char list")
    assert "Mira Vance (submitted" in listed.text


async def test_a_storyteller_approves_from_the_roster_and_the_player_s_chat_sees_it(
    site: SiteMaker, new_page: PageMaker
) -> None:
    sheets = FakeAdapter("fake")
    served = await site(
        extra_plugins=[*ACCOUNT, sheets.plugin()],
        platforms=("web", "fake"),
        nightcap={"sheet_export": "fake:sheets"},
    )
    await _submitted(served, "Mira Vance")
    await say(served, "st add console:sam", "owner", st=True)
    page = await new_page()
    await browser_sign_in(served, page, "sam")
    await page.click("text=Manage STs")
    await page.wait_for_selector("#st-identity")
    await shoot(page, "storytellers", new_page, served)
    await page.click("text=Roster")
    await page.wait_for_selector("text=Unlocked Sheets")
    await shoot(page, "roster", new_page, served)
    await page.click("a:text('Mira Vance')")
    await page.wait_for_selector("#action-approve")
    await shoot(page, "profile", new_page, served)
    await page.click("#action-approve")
    assert "Mira Vance is approved and locked" in ((await page.text_content(".reply")) or "")
    (listed,) = await say(served, "char list")
    assert "Mira Vance (approved" in listed.text
    (exported,) = await sheets.wait_for(1)
    assert exported.target == "sheets" and "Mira Vance" in exported.text
    # The Storyteller's edit is the chat command's: audited as console:sam.
    async with served.gateway.services.vault.transaction() as session:
        approved = (await session.exec(select(Audit).where(col(Audit.action) == "st.approve"))).one()
    assert approved.actor_key == "console:sam"
    await page.fill("#f-damage", "2")
    await page.click("#save-sheet")
    assert "Mira Vance" in ((await page.text_content(".reply")) or "")
    assert await page.locator(".history td", has_text="st.pool").count() >= 1
    await page.goto(served.url(f"/st/c/{(await _id(served, 'Mira Vance'))}?lang=ru"))
    assert await page.text_content("#save-sheet") == "Сохранить изменения"
    await shoot(page, "profile-ru", new_page, served)
    await page.goto(served.url("/st?lang=cs"))
    assert await page.text_content("h1") == "Seznam postav"
    await shoot(page, "roster-cs", new_page, served)


async def test_a_roll_made_in_chat_appears_on_the_live_log_as_text(
    site: SiteMaker, new_page: PageMaker
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    served = await site(extra_plugins=ACCOUNT, dice=ScriptedDice([9, 5, 10, 8, 8]))
    await say(served, f"char new {evil}")
    await say(served, "st add console:sam", "owner", st=True)
    await say(served, f"st approve {evil} force", "owner", st=True)  # only an approved sheet rolls
    page = await new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await browser_sign_in(served, page, "sam")
    await page.goto(served.url("/st/log"))
    await page.wait_for_selector("#live-state[data-state=live]")
    (rolled,) = await say(served, "roll physical")
    roll_id = rolled.result["id"]  # type: ignore[index]
    entry = page.locator(f"#live-log li[data-id='{roll_id}']")
    await entry.wait_for(timeout=10_000)
    assert evil in ((await entry.text_content()) or "")
    assert await page.locator("#live-log img").count() == 0
    assert await entry.locator("a").get_attribute("href") == f"/r/{roll_id}"
    await shoot(page, "live-log", new_page, served)
    # Every page shows the name as text: the roster, the profile, the log after a reload.
    async with served.gateway.services.vault.transaction() as session:
        character = (await session.exec(select(Character))).one()
    for path in ("/st?show=all", f"/st/c/{character.id}", "/st/log", f"/st/log?name={evil}"):
        await page.goto(served.url(path))
        assert evil in ((await page.text_content("main")) or ""), path
        assert await page.locator("main img").count() == 0, path
    assert dialogs == []


async def _submitted(served: Site, name: str) -> None:
    for line in (
        f"char new {name}",
        "trait physical 4",
        "trait mental 3",
        "trait spirit 2",
        "power add Shadow Step adept physical",
        "power add Glow basic spirit",
        "char submit",
    ):
        (reply,) = await say(served, line)
        assert reply.error is None, reply


async def _id(served: Site, name: str) -> int:
    async with served.gateway.services.vault.transaction() as session:
        found = (await session.exec(select(Character.id).where(col(Character.name) == name))).one()
    assert found is not None
    return found
