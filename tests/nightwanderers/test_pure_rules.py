"""Night Wanderers' rules that left the command modules, tested without a vault: the initiative order
with a dodge's bonus, the values ``st set`` takes, and how a name shares a line with numbers."""

from __future__ import annotations

from gateway import bind
from gateway.core.dice import ScriptedDice
from plugins.nightwanderers import params, tactics
from plugins.nightwanderers.config import NightWanderersSettings
from plugins.nightwanderers.fields import LEVELS, NO, YES


def entry(name: str, celerity: int = 0, hunting: bool = False) -> dict[str, object]:
    return {"name": name, "hunting": hunting, "celerity": celerity}


def test_a_dodge_bonus_breaks_a_tie_of_2d6_and_is_reported() -> None:
    # Both roll 3+3; Bo's -1 makes 5 against 6, and the lower total goes first.
    order = tactics.initiative_order(
        [entry("Ann"), entry("Bo")], NightWanderersSettings(), ScriptedDice([3, 3, 3, 3]), {"bo": -1}
    )
    assert order["order"] == ["Bo", "Ann"] and order["bonuses"] == {"Bo": -1}


def test_powers_go_before_the_dice_and_no_bonus_is_reported_when_none_applies() -> None:
    order = tactics.initiative_order(
        [entry("Ann"), entry("Bo", hunting=True)], NightWanderersSettings(), ScriptedDice([1, 1, 6, 6])
    )
    assert order["order"][0] == "Bo" and order["bonuses"] == {}


def test_power_words_and_field_values_read_russian() -> None:
    assert tactics.POWERS.read(["охотничий", "быстрота", "продвинутая"]) == {"hunting": True, "celerity": 2}
    assert "да" in YES and "нет" in NO and "yes" in YES and "off" in NO
    assert [LEVELS[w] for w in ("нет", "начальная", "продвинутая", "basic")] == [0, 1, 2, 1]


def test_a_name_takes_the_words_its_numbers_leave() -> None:
    assert bind(params.PARAMS["dismember"], ["Иван", "Грозный", "2"]) == {
        "target": "Иван Грозный",
        "turns": 2,
    }
    assert bind(params.PARAMS["dismember"], ["Иван", "Грозный"]) == {"target": "Иван Грозный"}
    assert bind(params.PARAMS["damage"], ["3", "Иван", "deep"]) == {
        "amount": 3,
        "deep": True,
        "target": ["Иван"],
    }
