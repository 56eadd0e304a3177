"""The sheet pages of Decanter, Dramatic Systems, Pravidla and Night Wanderers characters in a real
browser: the player's sheet (and, where players edit their own sheet, its editor), the Storyteller's
profile, chat's own replies and refusals, and who may see which sheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from adapters.web.account.player import creatable, shown, statused
from adapters.web.account.sheets import storyteller_line
from gateway import RuleSystem, SheetForms, channels
from gateway.testing import start_chat
from gateway.types import Channel
from gateway.vault.models import Audit, Character
from plugins.decanter import DECANTER
from plugins.pravidla import PRAVIDLA
from tests.web.conftest import Site
from tests.web.test_account_flow import shoot
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def _made(served: Site, system: str, line: str, as_: str = "mira") -> Character:
    """``line`` (a ``char new``) typed in a console channel that plays ``system``."""
    await channels.set_system(served.gateway.services.vault, Channel("console", system), system)
    (reply,) = await say(served, line, as_, channel=system)
    assert reply.error is None, reply
    async with served.gateway.services.vault.transaction() as session:
        found = await session.exec(select(Character).where(col(Character.system) == system))
        return found.all()[-1]


async def _set(page: Any, form: str, field: str, value: str) -> tuple[str, bool]:
    """Submits a FIELD VALUE form; the reply's text and whether it was a refusal."""
    await page.select_option(f"#{form}-field", field)
    await page.fill(f"#{form}-value", value)
    await page.click(f"#{form} button")
    reply = page.locator(".reply").first
    return (await reply.text_content()) or "", "error" in ((await reply.get_attribute("class")) or "")


async def _rating(page: Any, key: str) -> str:
    return ((await page.text_content(f".traits tr[data-key='{key}'] td")) or "").strip()


async def test_a_decanter_player_edits_in_creation_and_a_storyteller_approves(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    mira = await _made(served, "decanter", "char new Ada Byron")
    page = await new_page()
    await browser_sign_in(served, page)
    await page.click("a:text('Ada Byron')")
    assert "Rule system: Decanter" in ((await page.text_content(".sheet .system")) or "")
    assert await page.text_content("#sheet-heading .status") == "in creation"
    assert await _rating(page, "strength") == "1"
    said, refused = await _set(page, "set", "strength", "3")
    assert not refused and "Strength" in said
    assert await _rating(page, "strength") == "3"
    await _set(page, "set", "athletics", "2")
    assert await _rating(page, "athletics") == "2"  # a Skill above 0 shows under Skills
    assert await page.text_content(".traits:has(tr[data-key='athletics']) caption") == "Skills"
    said, refused = await _set(page, "set", "strength", "7")  # a player stops at 5
    assert refused and "5" in said
    assert await _rating(page, "strength") == "3"
    await _set(page, "set", "notes", "Counts <b>everything</b>")
    assert "Counts <b>everything</b>" in ((await page.text_content(".fields")) or "")
    await shoot(page, "decanter-sheet", new_page, served)
    async with served.gateway.services.vault.transaction() as session:
        rows = (await session.exec(select(Audit.action, Audit.actor_key))).all()
    assert ("decanter.set", "console:mira") in rows

    await say(served, "st add console:sam", "owner", st=True)
    st = await new_page()
    await browser_sign_in(served, st, "sam")
    await st.goto(served.url("/st"))
    await shoot(st, "roster-systems", new_page, served)
    row = st.locator("tr", has_text="Ada Byron")
    assert "Decanter" in ((await row.text_content()) or "")
    await row.locator("a").click()
    await st.wait_for_selector("#approve")
    said, refused = await _set(st, "st-set", "strength", "6")  # a Storyteller goes to 10
    assert not refused and await _rating(st, "strength") == "6"
    await shoot(st, "decanter-profile", new_page, served)
    await st.click("#approve")
    assert "Ada Byron" in ((await st.text_content(".reply")) or "")
    assert await st.text_content("#sheet-heading .status") == "approved"
    await page.reload()
    assert await page.locator("#set").count() == 0  # approved: locked for the player
    assert mira.owner_id is not None


async def test_a_dramatic_player_edits_in_creation(site: SiteMaker, new_page: PageMaker) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await _made(served, "dramatic", "char new Vic")
    page = await new_page()
    await browser_sign_in(served, page)
    await page.click("a:text('Vic')")
    await page.wait_for_selector("#set")
    said, refused = await _set(page, "set", "wits", "4")
    assert not refused and await _rating(page, "wits") == "4"
    said, refused = await _set(page, "set", "secondary", "wits 2")  # an Attribute's name: refused
    assert refused and "secondary" in said.casefold()
    await _set(page, "set", "brawl", "3")
    assert await page.text_content(".traits:has(tr[data-key='brawl']) caption") == "Abilities"
    assert "Willpower" in ((await page.text_content(".pools")) or "")
    await shoot(page, "dramatic-sheet", new_page, served)


async def test_a_pravidla_sheet_is_czech_and_set_by_a_storyteller(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await _made(served, "pravidla", "char new Anna Nová")
    await say(served, "st add console:sam", "owner", st=True)
    page = await new_page()
    await browser_sign_in(served, page)
    await page.click("a:text('Anna Nová')")
    await page.wait_for_selector(".sheet")
    assert await page.get_attribute(".sheet", "lang") == "cs"
    assert "Síla" in ((await page.text_content(".traits")) or "")
    assert await page.locator("#set").count() == 0  # a Storyteller sets Pravidla sheets
    assert await page.locator("#sheet-heading .status").count() == 0  # no approval in Pravidla
    before = await _rating(page, "strength")

    st = await new_page()
    await browser_sign_in(served, st, "sam")
    await st.goto(served.url("/st"))
    await st.click("a:text('Anna Nová')")
    await st.wait_for_selector("#st-set")
    said, refused = await _set(st, "st-set", "strength", "4")
    assert not refused and "Síla" in said
    assert await _rating(st, "strength") == "4" != before
    said, refused = await _set(st, "st-set", "strength", "11")
    assert refused and "Síla" in said  # chat's Czech refusal
    said, refused = await _set(st, "st-set", "hunting", "ano")
    assert not refused
    assert "Lovecký instinkt" in ((await st.text_content(".powers")) or "")
    await shoot(st, "pravidla-profile", new_page, served)
    await st.click("text=Storyteller log of this character")  # the st set lines, in chat's words
    assert "Anna Nová: Síla 1 → 4" in ((await st.text_content("main")) or "")
    await page.reload()
    assert await _rating(page, "strength") == "4"
    await shoot(page, "pravidla-sheet", new_page, served)


async def test_a_night_wanderers_sheet_is_russian_and_set_by_a_storyteller(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    await say(served, "st add console:sam", "owner", st=True)
    page = await new_page()
    await browser_sign_in(served, page)
    await page.fill("#new-name", "Вера")  # made on the web, in Night Wanderers' own char new
    await page.select_option("#new-system", "nightwanderers")
    await page.click("text=Create")
    assert "Вера" in ((await page.text_content(".reply")) or "")  # Create lands on the new sheet
    await page.wait_for_selector(".sheet")
    assert await page.get_attribute(".sheet", "lang") == "ru"
    assert "Здоровье" in ((await page.text_content(".pools")) or "")
    assert await page.locator("#set").count() == 0

    st = await new_page()
    await browser_sign_in(served, st, "sam")
    await st.goto(served.url("/st"))
    await st.click("a:text('Вера')")
    await st.wait_for_selector("#st-set")
    said, refused = await _set(st, "st-set", "mind", "3")
    assert not refused and await _rating(st, "mind") == "3"
    said, refused = await _set(st, "st-set", "humanity", "много")
    assert refused and "Гуманность" in said
    await shoot(st, "nightwanderers-profile", new_page, served)
    await page.reload()
    assert await _rating(page, "mind") == "3"
    await shoot(page, "nightwanderers-sheet", new_page, served)


async def test_another_player_s_sheet_is_not_found_and_names_are_text(
    site: SiteMaker, new_page: PageMaker
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    served = await site(extra_plugins=ACCOUNT)
    theirs = {
        system: await _made(served, system, f"char new {evil}", "bob") for system in ("decanter", "pravidla")
    }
    mine = await _made(served, "dramatic", f"char new {evil}")
    await _made(served, "nightwanderers", "char new Вера")
    await client_sign_in(served)
    token = await csrf_of(served)
    for character in theirs.values():
        forged = await served.client.post(
            f"/me/c/{character.id}", data={"csrf": token, "action": "set", "field": "notes", "value": "x"}
        )
        assert forged.status == 404
        got = await served.client.get(f"/me/c/{character.id}")
        assert got.status == 404 and "img" not in await got.text()
        posted = await served.client.post(f"/me/c/{character.id}", data={"action": "set"})
        assert posted.status == 403  # no CSRF token: refused before anything is read
    async with served.gateway.services.vault.transaction() as session:
        actions = (await session.exec(select(Audit.action))).all()
    assert "decanter.set" not in actions and "sheet.set" not in actions
    page = await new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await browser_sign_in(served, page)
    listed = (await page.text_content("main .characters")) or ""
    assert evil in listed and "Dramatic Systems" in listed and "Night Wanderers" in listed
    await shoot(page, "mine-systems", new_page, served)
    await page.goto(served.url(f"/me/c/{mine.id}"))
    assert evil in ((await page.text_content("h1")) or "")
    assert await page.locator("main img").count() == 0
    await page.goto(served.url(f"/st/c/{theirs['pravidla'].id}"))
    assert await page.text_content("h1") == "Storytellers only"
    assert dialogs == []


def test_a_profile_s_form_is_one_st_command_line_with_the_name_and_value_kept_whole() -> None:
    # The forms are the systems' own declarations (RuleSystem.sheet_forms), not the adapter's.
    decanter, pravidla = DECANTER.sheet_forms, PRAVIDLA.sheet_forms
    assert decanter is not None and pravidla is not None
    form = {"action": "set", "field": "strength", "value": "4 extra"}
    # Pravidla's st set reads its last two words as field and value: a value stays one word.
    assert storyteller_line(pravidla, "Anna Nová", form) == 'st set "Anna Nová" strength "4 extra"'
    notes = {"action": "set", "field": "notes", "value": "a  b"}
    assert storyteller_line(decanter, 'Ada "the" Byron', notes) == "st set 'Ada \"the\" Byron' notes a b"
    assert storyteller_line(decanter, "Ada", {"action": "approve"}) == "st approve Ada"
    assert storyteller_line(pravidla, "Anna", {"action": "approve"}) is None  # no approval there
    assert storyteller_line(decanter, "Ada", {"action": "retire"}) is None


async def test_a_new_systems_sheet_pages_come_from_its_object(tmp_path: Path) -> None:
    """A system the web adapter never heard of gets sheet pages, a place in the "new character"
    list and a status, from its ``sheet_forms`` alone."""
    forms = SheetForms(player_set=True, approve=True, fields=lambda locale: (("luck", "Luck"),))
    tarot = RuleSystem("tarot", "Tarot", "one d6", sheet_forms=forms)
    bare = RuleSystem("coins", "Coins", "a coin")
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", systems=[tarot, bare])
    try:
        services = chat.services
        assert "tarot" in creatable(services) and "coins" not in creatable(services)
        assert creatable(services)[0] == "nightcap"
        assert "tarot" in statused(services) and "coins" not in statused(services)
        for system, has_pages in (("tarot", True), ("coins", False), ("nightcap", True)):
            character = Character(owner_id=1, system=system, name="Mira", name_key="mira")
            assert shown(services, character) is has_pages, system
    finally:
        await chat.stop()
