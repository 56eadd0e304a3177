"""The sheet declaration (``gateway.core.sheet_spec``): what it refuses, the summary the core derives from
it, who may edit which field, and the command lines the web's one form becomes."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.web.account.sheets import changed_lines
from gateway import Choice, EditLines, RuleSystem, SheetAction, SheetField, SheetGroup, SheetSpec
from gateway.core.parser import tokenize
from gateway.core.summary import FreeField, PoolMeter, Power, RatedTrait
from gateway.vault.models import Character
from plugins.decanter.sheet_spec import SHEET as DECANTER_SHEET
from plugins.nightcap.sheet_spec import SHEET as NIGHTCAP_SHEET
from plugins.nightwanderers.sheet_spec import SHEET as WANDERERS_SHEET
from plugins.pravidla.sheet_spec import SHEET as PRAVIDLA_SHEET

LEVELS = (Choice("0", {"en": "none"}), Choice("1", {"en": "Second Sight", "cs": "Druhý zrak"}))
TAROT = SheetSpec(
    fields=(
        SheetField("luck", "rating", {"en": "Luck", "cs": "Štěstí"}, group="traits", path=("traits", "luck")),
        SheetField(
            "grace", "rating", {"en": "Grace"}, group="traits", path=("traits", "grace"), hide_zero=True
        ),
        SheetField("fate", "rating", {"en": "Fate"}, rolled=False, default=3, maximum=7),
        SheetField("cards", "pool", {"en": "Cards"}, edit="storyteller"),
        SheetField("suit", "choice", {"en": "Suit"}, choices=(Choice("cups", {"en": "Cups"}),)),
        SheetField("sight", "choice", {"en": "Sight"}, choices=LEVELS, power=True, edit="storyteller"),
        SheetField("notes", "text", {"en": "Notes"}, multiline=True),
        SheetField("marked", "flag", {"en": "Marked"}, hide_zero=True, choices=(Choice("1", {"en": "yes"}),)),
    ),
    groups=(SheetGroup("traits", {"en": "Arcana", "cs": "Arkána"}),),
    lines={
        "rating": EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}"),
        "text": EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}"),
        "choice": EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}"),
        "pool": EditLines(storyteller="st set {name} {key} {value}/{max}"),
    },
    actions=(SheetAction("approve", {"en": "Approve"}, "st approve {name}", statuses=("creation",)),),
)


def character(
    system: str, sheet: dict[str, Any], status: str = "creation", name: str = "Mira Vance"
) -> Character:
    return Character(
        owner_id=1, system=system, name=name, name_key=name.casefold(), status=status, sheet=sheet
    )


def test_a_field_declared_twice_or_under_an_undeclared_heading_is_refused() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        SheetSpec(fields=(SheetField("luck", "rating", {}), SheetField("luck", "text", {})))
    with pytest.raises(ValueError, match="undeclared groups"):
        SheetSpec(fields=(SheetField("luck", "rating", {}, group="arcana"),))


def test_the_summary_is_derived_from_the_declaration() -> None:
    system = RuleSystem("tarot", "Tarot", "one d6", sheet=TAROT)
    sheet = {"traits": {"luck": 2, "grace": 0}, "suit": "cups", "sight": 1, "notes": "", "marked": False}
    summary = system.summary(character("tarot", sheet), {"cards": (2, 5), "other": (1, 1)}, "cs")
    assert summary is not None
    # Grace at 0 is left out; Fate is rated but no roll names it, so it is text, not a trait.
    assert summary.traits == (RatedTrait("luck", "Štěstí", 2, None, "Arkána"),)
    assert summary.pools == (PoolMeter("cards", "Cards", 2, 5),)  # only the declared pools
    assert summary.powers == (Power("Druhý zrak", 1),)  # a choice held as a power, named as held
    assert summary.fields == (
        FreeField("Fate", "3"),
        FreeField("Suit", "Cups"),
    )  # empty and unset ones left out
    assert RuleSystem("bare", "Bare", "d6").summary(character("bare", sheet), {}, "en") is None


def test_who_may_edit_each_field() -> None:
    luck, cards, sight = (TAROT.field_of(key) for key in ("luck", "cards", "sight"))
    assert luck is not None and cards is not None and sight is not None
    assert TAROT.editable(luck, storyteller=False, status="creation")
    assert not TAROT.editable(luck, storyteller=False, status="approved")  # locked once approved
    assert TAROT.editable(luck, storyteller=True, status="approved")  # a Storyteller always
    assert not TAROT.editable(cards, storyteller=False, status="creation")  # the Storyteller's
    assert TAROT.editable(cards, storyteller=True, status="creation")
    assert TAROT.approved and not PRAVIDLA_SHEET.approved and NIGHTCAP_SHEET.approved
    assert not PRAVIDLA_SHEET.players_edit() and DECANTER_SHEET.players_edit()


def test_the_form_becomes_the_changed_fields_command_lines_lowered_ratings_first() -> None:
    mira = character("tarot", {})
    form = {
        "v.luck": "4",
        "w.luck": "1",
        "v.grace": "0",
        "w.grace": "2",  # lowered: goes first, so a budget has the points back
        "v.fate": "5",
        "w.fate": "5",  # unchanged: nothing runs
        "v.notes": "two  words\nand a line",
        "w.notes": "",
        "v.suit": "cups",
        "w.suit": "",
        "v.cards": "3",
        "w.cards": "2",
        "m.cards": "5",
    }
    assert changed_lines(TAROT, mira, form, storyteller=False) == [
        ("grace", "set grace 0"),
        ("luck", "set luck 4"),
        ("suit", "set suit cups"),
        ("notes", "set notes two words and a line"),
    ]  # a player has no line for the pool
    lines = dict(changed_lines(TAROT, mira, form, storyteller=True))
    assert lines["cards"] == 'st set "Mira Vance" cards 3/5'
    assert tokenize(lines["luck"]) == ["st", "set", "Mira Vance", "luck", "4"]
    # A value is one word where the command reads one: quoted, never split into two.
    assert (
        tokenize(
            dict(changed_lines(TAROT, mira, {"v.luck": "4 5", "w.luck": "1"}, storyteller=True))["luck"]
        )[-1]
        == "4 5"
    )


def test_each_book_s_sheet_edits_with_its_own_commands() -> None:
    anna = character("pravidla", {"traits": {"strength": 1}}, name="Anna Nová")
    assert changed_lines(PRAVIDLA_SHEET, anna, {"v.strength": "4", "w.strength": "1"}, storyteller=True) == [
        ("strength", 'st set "Anna Nová" strength 4')
    ]
    assert (
        changed_lines(PRAVIDLA_SHEET, anna, {"v.strength": "4", "w.strength": "1"}, storyteller=False) == []
    )
    vera = character("nightwanderers", {"clan": None}, name="Вера")
    assert changed_lines(WANDERERS_SHEET, vera, {"v.clan": "lesang", "w.clan": ""}, storyteller=True) == [
        ("clan", "st set Вера clan lesang")
    ]
    mira = character("nightcap", {})
    form = {
        "v.physical": "4",
        "w.physical": "1",
        "v.mental": "1",
        "w.mental": "3",
        "v.damage": "2",
        "w.damage": "0",
    }
    assert changed_lines(NIGHTCAP_SHEET, mira, form, storyteller=False) == [
        ("mental", "trait mental 1"),
        ("physical", "trait physical 4"),
    ]
    assert changed_lines(NIGHTCAP_SHEET, mira, form, storyteller=True)[-1] == (
        "damage",
        'st pool "Mira Vance" damage 2',
    )
    ada = character("decanter", {}, status="approved")
    assert changed_lines(DECANTER_SHEET, ada, {"v.strength": "3", "w.strength": "1"}, storyteller=False) == []
