"""Every rule system's sheet page in a real browser, drawn from the system's declared sheet: dots,
boxes and the book's headings, one editor form whose changes are the chat commands (their refusals
shown beside the field, in chat's language), who may edit what, and who may see which sheet."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlmodel import col, select

from gateway.core.types import Channel
from gateway.features import channels
from gateway.vault.models import Audit, Character
from tests.web.conftest import Site
from tests.web.test_account_flow import shoot
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, client_sign_in, csrf_of, say

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]


async def made(served: Site, system: str, line: str, as_: str = "mira") -> Character:
    """``line`` (a ``char new``) typed in a console channel that plays ``system``."""
    await channels.set_system(served.gateway.services.vault, Channel("console", system), system)
    (reply,) = await say(served, line, as_, channel=system)
    assert reply.error is None, reply
    async with served.gateway.services.vault.transaction() as session:
        found = await session.exec(select(Character).where(col(Character.system) == system))
        return found.all()[-1]


async def dots(page: Any, key: str) -> tuple[int, int]:
    """(filled, drawn) dots of a rating."""
    field = page.locator(f".sheet-field[data-key='{key}'] .dots")
    return await field.locator(".dot.on").count(), await field.locator(".dot").count()


async def boxes(page: Any, key: str) -> tuple[int, int]:
    field = page.locator(f".sheet-field[data-key='{key}'] .boxes")
    return await field.locator(".box.on").count(), await field.locator(".box").count()


async def said(page: Any) -> str:
    return " ".join(await page.locator(".replies .reply:not(.error)").all_text_contents())


async def st_page(served: Site, new_page: PageMaker, character: Character) -> Any:
    await say(served, "st add console:sam", "owner", st=True)
    st = await new_page()
    await browser_sign_in(served, st, "sam")
    await st.goto(served.url(f"/st/c/{character.id}"))
    await st.wait_for_selector(".sheet")
    return st


async def test_a_decanter_player_edits_the_whole_sheet_in_one_form_and_a_storyteller_approves(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    ada = await made(served, "decanter", "char new Ada Byron")
    page = await new_page()
    await browser_sign_in(served, page)
    await page.click("a:text('Ada Byron')")
    await page.wait_for_selector("#sheet-editor")
    assert "Rule system: Decanter" in ((await page.text_content(".sheet .system")) or "")
    headings = await page.locator(".sheet-group h3").all_text_contents()
    assert headings[:3] == ["About", "Attributes", "Skills"]
    assert await dots(page, "strength") == (1, 5)
    # Strength and Athletics within a player's 5, Wits over it, notes and a kind: one save.
    await page.fill("#f-strength", "3")
    await page.fill("#f-athletics", "2")
    await page.fill("#f-wits", "7")
    await page.fill("#f-notes", "Counts <b>everything</b>")
    await page.select_option("#f-kind", "ghoul")
    await page.click("#save-sheet")
    await page.wait_for_selector("#error-wits")
    assert await dots(page, "strength") == (3, 5) and await dots(page, "athletics") == (2, 5)
    assert await dots(page, "wits") == (1, 5)  # refused: the sheet is as it was
    assert await page.text_content("#error-wits") == "Wits goes from 0 to 5."  # chat's own refusal
    assert await page.input_value("#f-wits") == "7"  # what was typed stays, to be put right
    assert await page.get_attribute("#f-wits", "aria-describedby") == "error-wits"
    assert "1 change was refused" in ((await page.text_content("#sheet-refused")) or "")
    assert await page.input_value("#f-notes") == "Counts <b>everything</b>"  # text, not markup
    assert await page.locator(".sheet b").count() == 0
    await shoot(page, "sheet-decanter-refused", new_page, served)
    await page.fill("#f-wits", "1")
    await page.click("#save-sheet")  # Wits back to what it is: nothing to change, nothing run
    assert await page.locator(".field-error").count() == 0
    async with served.gateway.services.vault.transaction() as session:
        actions = (await session.exec(select(Audit.action, Audit.actor_key))).all()
    assert actions.count(("decanter.set", "console:mira")) == 4  # strength, athletics, notes, kind

    st = await st_page(served, new_page, ada)
    await st.fill("#f-strength", "6")  # a Storyteller goes to 10
    await st.click("#save-sheet")
    await st.wait_for_selector(".replies")
    assert await dots(st, "strength") == (6, 6)
    await st.click("#action-approve")
    await st.wait_for_selector("#action-approve", state="detached")
    assert await st.text_content("#sheet-heading .status") == "approved"
    await page.reload()
    assert await page.locator(".sheet-groups .edit").count() == 0  # approved: locked for the player
    assert await page.locator("#f-bio").count() == 1  # but the biography is still theirs
    assert "approved and locked" in ((await page.text_content(".sheet-note")) or "")
    assert await dots(page, "strength") == (6, 6)


async def test_a_pravidla_sheet_is_czech_and_a_storyteller_sets_it(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    anna = await made(served, "pravidla", "char new Anna Nová")
    page = await new_page()
    await browser_sign_in(served, page)
    await page.click("a:text('Anna Nová')")
    await page.wait_for_selector(".sheet")
    assert await page.get_attribute(".sheet", "lang") == "cs"
    assert await page.locator(".sheet-group h3").all_text_contents() == ["Vlastnosti"]  # no power held
    assert await page.locator(".sheet-groups .edit").count() == 0  # a Storyteller sets Pravidla sheets
    assert await page.locator("#sheet-heading .status").count() == 0  # no approval in Pravidla
    assert await dots(page, "strength") == (1, 10)

    st = await st_page(served, new_page, anna)
    await st.fill("#f-strength", "4")
    await st.fill("#f-charm", "11")
    await st.select_option("#f-hunting", "1")
    await st.select_option("#f-celerity", "2")
    await st.click("#save-sheet")
    await st.wait_for_selector("#error-charm")
    assert await dots(st, "strength") == (4, 10)
    assert "Šarm" in ((await st.text_content("#error-charm")) or "")  # chat's Czech refusal
    assert await st.input_value("#f-celerity") == "2" and await st.input_value("#f-hunting") == "1"
    await shoot(st, "sheet-pravidla-storyteller", new_page, served)
    await st.click("text=Storyteller log of this character")  # the st set lines, in chat's words
    assert "Anna Nová: Síla 1 → 4" in ((await st.text_content("main")) or "")
    await page.reload()
    assert await dots(page, "strength") == (4, 10)
    hunting = (await page.text_content(".sheet-field[data-key=hunting]")) or ""
    assert " ".join(hunting.split()) == "Lovecký instinkt ano"
    assert "Pokročilá Celerita" in ((await page.text_content(".sheet-field[data-key=celerity]")) or "")


async def test_a_night_wanderers_clan_is_set_from_the_editor_in_russian(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    page = await new_page()
    await browser_sign_in(served, page)
    await page.fill("#new-name", "Вера")  # made on the web, in Night Wanderers' own char new
    await page.select_option("#new-system", "nightwanderers")
    await page.click("text=Create")
    async with served.gateway.services.vault.transaction() as session:
        vera = (await session.exec(select(Character).where(col(Character.name) == "Вера"))).one()
    await page.goto(served.url(f"/me/c/{vera.id}"))
    assert await page.get_attribute(".sheet", "lang") == "ru"
    headings = await page.locator(".sheet-group h3").all_text_contents()
    assert headings == ["О персонаже", "Атрибуты", "Трюки", "Здоровье и Кровь"]  # no power held yet
    assert "Здоровье" in ((await page.text_content(".sheet-field[data-key=hp]")) or "")
    assert await page.locator(".sheet-groups .edit").count() == 0

    st = await st_page(served, new_page, vera)
    await st.select_option("#f-clan", "lesang")
    await st.fill("#f-mind", "3")
    await st.click("#save-sheet")
    await st.wait_for_selector(".replies")
    assert await st.locator(".field-error").count() == 0, await st.text_content("main")
    assert await st.input_value("#f-clan") == "lesang"
    assert await dots(st, "mind") == (3, 5)  # five dots drawn, more once a rating is higher
    # A value the input would not offer, posted as a forged form: chat's Russian refusal beside it.
    await client_sign_in(served, "sam")
    token = await csrf_of(served, f"/st/c/{vera.id}")
    posted = await served.client.post(
        f"/st/c/{vera.id}", data={"csrf": token, "v.humanity": "много", "w.humanity": "8"}
    )
    body = await posted.text()
    assert posted.status == 200 and 'id="error-humanity"' in body and "Гуманность" in body
    await shoot(st, "sheet-nightwanderers-storyteller", new_page, served)
    await page.reload()
    assert "Лесанг" in ((await page.text_content(".sheet-field[data-key=clan]")) or "")


async def test_a_nightcap_storyteller_sets_the_health_track_and_unlocks_the_sheet(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=ACCOUNT)
    mira = await made(served, "nightcap", "char new Mira Vance")
    st = await st_page(served, new_page, mira)
    assert await boxes(st, "damage") == (0, 10)
    assert await st.get_attribute(".sheet-field[data-key=damage] .box:last-child", "class") == "box end"
    label = await st.get_attribute(".sheet-field[data-key=damage] .boxes", "aria-label")
    assert label == "0 of 10 (the last box is Incapacitated)"
    await st.fill("#f-damage", "3")
    await st.fill("#f-physical", "7")  # the Storyteller HUD enforces no limits
    await st.fill("#new-power", "Storm Call")
    await st.select_option("#new-tier", "legendary")  # a tier no player may take
    await st.select_option("#new-trait", "spirit")
    await st.click("#save-sheet")
    await st.wait_for_selector(".replies")
    assert await st.locator(".field-error").count() == 0, await st.text_content("main")
    assert await boxes(st, "damage") == (3, 10) and await dots(st, "physical") == (7, 7)
    assert "Legendary" in ((await st.text_content(".sheet-field[data-key=powers]")) or "")
    await st.click("#action-approve")
    await st.wait_for_selector("#action-unapprove")
    await st.check(".sheet-field[data-key=powers] input[type=checkbox]")
    await st.click("#save-sheet")
    await st.wait_for_selector(".sheet-field[data-key=powers] li.none")
    await st.click("#action-unapprove")
    await st.wait_for_selector("#action-approve")

    page = await new_page()
    await browser_sign_in(served, page)
    await page.goto(served.url(f"/me/c/{mira.id}"))
    tiers = await page.locator("#new-tier option").all_inner_texts()
    assert tiers == ["Basic", "Adept", "Advanced"]  # a player's editor offers the creation tiers
    assert await page.locator("#f-damage").count() == 0  # pools are the Storyteller's


async def test_another_player_s_sheet_is_not_found_and_names_are_text(
    site: SiteMaker, new_page: PageMaker
) -> None:
    evil = "<img src=x onerror=alert(1)>"
    served = await site(extra_plugins=ACCOUNT)
    theirs = {
        system: await made(served, system, f"char new {evil}", "bob") for system in ("decanter", "pravidla")
    }
    mine = await made(served, "dramatic", f"char new {evil}")
    await made(served, "nightwanderers", "char new Вера")
    await client_sign_in(served)
    token = await csrf_of(served)
    for character in theirs.values():
        forged = await served.client.post(
            f"/me/c/{character.id}", data={"csrf": token, "v.notes": "x", "w.notes": ""}
        )
        assert forged.status == 404
        got = await served.client.get(f"/me/c/{character.id}")
        assert got.status == 404 and "img" not in await got.text()
        posted = await served.client.post(f"/me/c/{character.id}", data={"v.notes": "x"})
        assert posted.status == 403  # no CSRF token: refused before anything is read
    unknown = await served.client.post(f"/me/c/{mine.id}", data={"csrf": token, "action": "approve"})
    assert unknown.status == 400  # a Storyteller's button is no player's action
    async with served.gateway.services.vault.transaction() as session:
        actions = (await session.exec(select(Audit.action))).all()
    assert "decanter.set" not in actions and "sheet.set" not in actions and "dramatic.approve" not in actions
    page = await new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))
    await browser_sign_in(served, page)
    listed = (await page.text_content("main .characters")) or ""
    assert evil in listed and "Dramatic Systems" in listed and "Night Wanderers" in listed
    await page.goto(served.url(f"/me/c/{mine.id}"))
    assert evil in ((await page.text_content("h1")) or "")
    assert await page.locator("main img").count() == 0
    await page.goto(served.url(f"/st/c/{theirs['pravidla'].id}"))
    assert await page.text_content("h1") == "Storytellers only"
    assert dialogs == []
