"""The Player HUD's menu declaration (``adapters.secondlife.menus``) read from ``RuleSystem``s alone:
which command the Roll menu sends, the steps after the trait, the fields a player sets, the lines."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.secondlife.menus import build, decl_of, roll_command, template
from gateway import Choice, Command, EditLines, Param, RuleSystem, SheetField, SheetSpec
from gateway.core.plugins import Plugins, build_plugin_manager


async def nothing(ctx: Any, inv: Any) -> None:
    return None


TRAIT = Param("trait", "trait", "a rating", required=True)
POOL = Param("pool", "pool", "ratings joined by +", required=True)


def system(*commands: Command, sheet: SheetSpec | None = None) -> RuleSystem:
    return RuleSystem("tiny", "Tiny", "d6", commands=list(commands), sheet=sheet)


def test_a_template_splits_at_the_placeholders_it_does_not_fill() -> None:
    assert template("trait {key} {value}", {"key": "physical"}) == ["trait physical ", "value", ""]
    assert template("power add {power} {tier} {trait}", {}) == [
        "power add ",
        "power",
        " ",
        "tier",
        " ",
        "trait",
        "",
    ]
    assert template("char submit", {}) == ["char submit"]


def test_the_roll_menu_sends_roll_else_a_trait_command_else_a_pool_command() -> None:
    light = Command("light", nothing, "a pool", params=(POOL,))
    steady = Command("steady", nothing, "one trait", params=(TRAIT,))
    burn = Command("burn", nothing, "oil", params=(Param("amount", "integer", "oil", required=True),))
    st_roll = Command("st check", nothing, "a pool", params=(TRAIT,), role="storyteller")
    roll = Command("roll", nothing, "a pool", params=(POOL,))
    assert roll_command(system(light, steady, burn, roll)) is not None
    assert roll_command(system(light, steady, burn, roll)).name == "roll"  # type: ignore[union-attr]
    assert roll_command(system(light, steady, burn)).name == "steady"  # type: ignore[union-attr]
    assert roll_command(system(burn, light)).name == "light"  # type: ignore[union-attr]
    assert roll_command(system(burn, st_roll)) is None  # a Storyteller's command is no player's menu
    assert build(system(burn), "en")["roll"] is None  # the HUD shows no Roll button


def test_the_steps_after_the_trait_follow_the_declaration() -> None:
    pool = SheetField("willpower", "pool", {"en": "Willpower"})
    flag = Param("wp", "flag", "spend Willpower", keyword="wp")
    mod = Param("mod", "modifier", "dice", minimum=-3, maximum=3)
    assert build(system(Command("steady", nothing, "", params=(TRAIT,))), "en")["roll"] == ["steady", 0, 0]
    assert build(system(Command("roll", nothing, "", params=(POOL,))), "en")["roll"] == ["roll", 1, 0]
    with_pool = SheetSpec(fields=(pool,))
    assert build(system(Command("roll", nothing, "", params=(POOL,)), sheet=with_pool), "en")["roll"] == [
        "roll",
        1,
        1,
    ]  # a dice pool reads wp where the sheet has Willpower
    assert build(system(Command("roll", nothing, "", params=(TRAIT, mod, flag))), "en")["roll"] == [
        "roll",
        1,
        1,
    ]


def test_the_fields_a_player_sets_with_their_ranges_and_lines() -> None:
    lines = EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}")
    sheet = SheetSpec(
        fields=(
            SheetField("wit", "rating", {"en": "Wit", "cs": "Důvtip"}, maximum=5),
            SheetField("luck", "rating", {"en": "Luck"}),  # no maximum: typed
            SheetField("oil", "pool", {"en": "Oil"}, edit="storyteller"),
            SheetField("calling", "choice", {"en": "Calling"}, choices=(Choice("keeper", {"en": "Keeper"}),)),
            SheetField("notes", "text", {"en": "Notes"}, edit="none"),  # set by play: not offered
        ),
        lines={"rating": lines, "choice": lines, "text": lines},
    )
    decl = build(system(sheet=sheet), "cs")
    assert decl["set"] == [
        ["Důvtip", "number", ["set wit ", "value", ""], 0, 5, []],
        ["Luck", "typed", ["set luck ", "value", ""], 0, 9, []],
        ["Calling", "choice", ["set calling ", "value", ""], 0, 9, [["keeper", "Keeper"]]],
    ]
    assert decl["pools"] == [["oil", "Oil"]] and decl["use"] == ["char use ", "name", ""]
    assert decl["tag"].startswith("tiny.cs.")


@pytest.mark.parametrize(
    ("name", "roll"),
    [
        ("nightcap", ["roll", 1, 1]),
        ("decanter", ["roll", 1, 0]),
        ("dramatic", ["roll", 1, 1]),
        ("pravidla", ["roll", 1, 0]),
        ("nightwanderers", ["roll", 1, 0]),
    ],
)
def test_every_shipped_system_has_a_roll_menu(name: str, roll: list[Any]) -> None:
    found = Plugins(build_plugin_manager()).systems()[name]
    for locale in found.locales:
        decl = decl_of(found, locale)
        assert decl["roll"] == roll and decl["traits"], (name, locale)
        assert decl_of(found, locale) is decl  # kept: declarations do not change while it runs


def test_the_storyteller_part_sets_every_field_a_storyteller_line_names() -> None:
    lines = EditLines(player="set {key} {value}", storyteller="st set {name} {key} {value}")
    sheet = SheetSpec(
        fields=(
            SheetField("wit", "rating", {"en": "Wit"}, maximum=5),
            SheetField("oil", "pool", {"en": "Oil"}, edit="storyteller", maximum=3),
            SheetField(
                "calling",
                "choice",
                {"en": "Calling"},
                choices=(Choice("keeper", {"en": "Keeper"}), Choice("lord", {"en": "Lord"}, player=False)),
            ),
            SheetField("notes", "text", {"en": "Notes"}, edit="none"),
        ),
        lines={"rating": lines, "choice": lines, "text": lines, "pool": lines},
    )
    check = Command("st check", nothing, "", params=(Param("name", "character", "who", required=True), POOL))
    setter = Command(
        "st rate",
        nothing,
        "",
        params=(
            Param("name", "character", "who", required=True),
            TRAIT,
            Param("n", "integer", "", required=True),
        ),
        role="storyteller",
    )
    decl = build(system(check, setter, sheet=sheet), "en")
    assert decl["st"] == {
        "cmds": ["st rate"],  # "st check" is a player's command here: no Storyteller menu rolls with it
        "roll": None,  # "st rate" sets a trait (a value follows it), it does not roll one
        "force": 0,  # no "st approve" with a force flag: the ST HUD's Approve asks nothing more
        "set": [
            ["Wit", "number", ["st set ", "name", " wit ", "value", ""], 0, 5, []],
            ["Oil", "number", ["st set ", "name", " oil ", "value", ""], 0, 3, []],
            [
                "Calling",
                "choice",
                ["st set ", "name", " calling ", "value", ""],
                0,
                9,
                [["keeper", "Keeper"], ["lord", "Lord"]],
            ],
        ],
        "power": {},
    }
    assert [row[0] for row in decl["set"]] == ["Wit", "Calling"]  # a player's rows: no pool, no Lord
    assert decl["set"][1][5] == [["keeper", "Keeper"]]


def test_nightcaps_storyteller_menus_come_from_its_declaration() -> None:
    found = Plugins(build_plugin_manager()).systems()["nightcap"]
    st = decl_of(found, "en")["st"]
    assert st["roll"] == ["st rollstat", 1, 1] and st["force"] == 1
    rows = {row[0]: row for row in st["set"]}
    assert rows["Physical"] == [
        "Physical",
        "typed",
        ["st trait ", "name", " physical ", "value", ""],
        0,
        9,
        [],
    ]
    assert rows["Damage"][2] == ["st pool ", "name", " damage ", "value", ""]
    assert rows["Origin"][1] == "text"
    assert st["power"] == {
        "add": ["st power ", "name", " add ", "power", " ", "tier", " ", "trait", ""],
        "remove": ["st power ", "name", " remove ", "power", ""],
    }
    assert {
        "st approve",
        "st unapprove",
        "st export",
        "st show",
        "st roll",
        "st announce",
        "st emote",
    } <= set(st["cmds"])
