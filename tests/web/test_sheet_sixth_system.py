"""A rule system the web adapter never heard of, declared here with six dots and the shared player
sheet commands, gets a sheet page, its one-form editor, a place in "new character" and a status,
from its declared sheet alone: no adapter knows it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from adapters.web.account.player import creatable, shown, statused
from gateway import CommandSet, RuleSystem, hookimpl
from gateway.core.i18n import Catalogue
from gateway.rules.dots_sheet import DotsSchema
from gateway.rules.dots_spec import dots_spec
from gateway.rules.player_sheets import PlayerSheets
from gateway.vault.models import Character
from tests.web.conftest import Site
from tests.web.test_account_helpers import ACCOUNT, browser_sign_in, say
from tests.web.test_sheet_pages import dots

SiteMaker = Callable[..., Awaitable[Site]]
PageMaker = Callable[..., Awaitable[Any]]
SYSTEM = "bones"


class BonesSheet(BaseModel):
    model_config = ConfigDict(extra="forbid")

    attributes: dict[str, int] = Field(default_factory=lambda: dict.fromkeys(("grit", "guile", "grace"), 1))
    knacks: dict[str, int] = Field(default_factory=dict)
    specialties: list[str] = Field(default_factory=list)
    notes: str = ""


SCHEMA = DotsSchema(
    title="Bones",
    model=BonesSheet,
    attributes=("grit", "guile", "grace"),
    learned=("digging", "haggling", "hiding"),
    learned_field="knacks",
    abbreviations={},
    pool_hint="Roll numbers",
)
MESSAGES: Mapping[str, str] = {
    "char.created": "{name} is your Bones character now.",
    "char.used": "{name} is your active Bones character.",
    "char.list": "Your Bones characters: {names}. Active: {active}.",
    "char.none": "You have no Bones characters yet.",
    "none": "none",
    "sheet": "{name} ({status}): {attributes}. Knacks: {knacks}. Specialties: {specialties}.",
    "set.done": "{name}: {field} {old} → {new}.",
    "approved": "{name}'s sheet is approved.",
}


class BonesCharacters(PlayerSheets):
    system = SYSTEM
    schema = SCHEMA
    catalogue = Catalogue({"en": dict(MESSAGES)})
    set_usage = "FIELD VALUE"


BONES = RuleSystem(
    SYSTEM,
    "Bones",
    "d6",
    commands=CommandSet(SYSTEM).include(BonesCharacters().commands()),
    sheet=dots_spec(SCHEMA, learned_label="Knacks"),
)


@hookimpl
def gateway_register_rule_systems(register: Callable[[RuleSystem], None]) -> None:
    register(BONES)


PLUGIN = SimpleNamespace(gateway_register_rule_systems=gateway_register_rule_systems, __name__="gw_bones")


async def test_a_sixth_system_gets_its_sheet_page_and_editor_from_its_declaration(
    site: SiteMaker, new_page: PageMaker
) -> None:
    served = await site(extra_plugins=[*ACCOUNT, PLUGIN])
    services = served.gateway.services
    assert SYSTEM in creatable(services) and SYSTEM in statused(services)
    assert shown(services, Character(owner_id=1, system=SYSTEM, name="Pip", name_key="pip"))
    page = await new_page()
    await browser_sign_in(served, page)
    await page.fill("#new-name", "Pip")
    await page.select_option("#new-system", SYSTEM)
    await page.click("text=Create")
    await page.wait_for_selector("#sheet-editor")  # a new character lands on its own sheet
    await page.click("header a:text('My characters')")
    await page.click("a:text('Pip')")  # and is listed among the player's characters
    await page.wait_for_selector("#sheet-editor")
    assert await page.locator(".sheet-group h3").all_text_contents() == ["About", "Attributes", "Knacks"]
    assert await dots(page, "grit") == (1, 5)
    await page.fill("#f-grit", "3")
    await page.fill("#f-hiding", "9")  # over a player's 5: chat's refusal beside the field
    await page.click("#save-sheet")
    await page.wait_for_selector("#error-hiding")
    assert await page.text_content("#error-hiding") == "Hiding goes from 0 to 5."
    assert await dots(page, "grit") == (3, 5)
    await say(served, "st add console:sam", "owner", st=True)
    st = await new_page()
    await browser_sign_in(served, st, "sam")
    await st.goto(page.url.replace("/me/c/", "/st/c/"))
    await st.click("#action-approve")
    await st.wait_for_selector("#action-approve", state="detached")
    assert await st.text_content("#sheet-heading .status") == "approved"
