"""``gateway.core.results``: the typed roll result every system builds. The JSON a system stores and
the HTTP API serves keeps its shape (pinned here against the dicts the systems wrote before the
model), each system's real roll and contest reads back into the model it was built from, and an
adapter reading an odd or foreign dict gets None or a lenient model, never an exception."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.core.dice import ScriptedDice
from gateway.core.results import ContestResult, NotationResult, ResultError, RollResult, read_result, roll_of
from gateway.features.notation import parse as notation_parse
from gateway.features.notation import roll as notation_roll
from gateway.features.notation.text import result as notation_result
from plugins.decanter import mechanics as decanter
from plugins.dramatic import mechanics as dramatic
from plugins.nightcap import mechanics as nightcap
from plugins.nightwanderers import mechanics as nightwanderers
from plugins.nightwanderers import tactics as nightwanderers_tactics
from plugins.pravidla import mechanics as pravidla

ROOT = Path(__file__).resolve().parents[2]


def test_results_is_a_leaf() -> None:
    """Adapters and every system import it: it imports nothing of the gateway."""
    tree = ast.parse((ROOT / "gateway" / "core" / "results.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert not (node.module or "").startswith(("gateway", "plugins", "adapters")), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not any(a.name.startswith(("gateway", "plugins", "adapters")) for a in node.names)


# --------------------------------------------------------------------------- the stored shape, pinned


def test_pravidla_roll_keeps_its_stored_shape() -> None:
    rolled = pravidla.roll(4, ScriptedDice([6, 4, 3, 1]), target=4, need=2)
    assert rolled.as_result() == {
        "kind": "roll",
        "system": "pravidla",
        "pool": 4,
        "target": 4,
        "need": 2,
        "dice": [6, 4, 3, 1],
        "successes": 2,
        "total": 2,
        "degree": "success",
    }
    assert next(iter(rolled.as_result())) == "kind"  # the roll log reads the kind first


def test_nightcap_roll_keeps_its_stored_shape() -> None:
    rolled = nightcap.roll(3, ScriptedDice([10, 8, 1]), willpower=True)
    assert rolled.as_result() == {
        "kind": "roll",
        "system": "nightcap",
        "pool": 3,
        "dice": [10, 8, 1],
        "chance_die": False,
        "dice_total": rolled.dice_total,
        "willpower": True,
        "total": rolled.total,
        "degree": rolled.degree,
    }
    assert "successes" not in rolled.as_result()  # Nightcap counts a total, not successes


def test_decanter_roll_without_a_dc_keeps_its_none_degree() -> None:
    rolled = decanter.roll(2, ScriptedDice([9, 4]))
    stored = rolled.as_result()
    assert stored["dc"] is None and stored["degree"] is None
    assert stored["kind"] == "roll" and stored["dice"] == [9, 4] and stored["total"] == stored["successes"]
    assert RollResult.from_json(stored).as_json() == stored


def test_dramatic_contest_keeps_its_stored_shape() -> None:
    attacker = dramatic.roll(2, 6, ScriptedDice([7, 8]))
    defender = dramatic.roll(1, 6, ScriptedDice([9]))
    stored = dramatic.resist(attacker, defender).as_result()
    assert stored == {
        "kind": "contest",
        "system": "dramatic",
        "sides": [attacker.as_result(), defender.as_result()],
        "margin": 1,
        "winner": 0,
    }
    assert stored["sides"][0]["willpower"] is False and stored["sides"][0]["extra_dice"] == []


# --------------------------------------------------------------------------- each system's real rolls


def _systems_rolls() -> list[tuple[str, Any]]:
    return [
        ("pravidla roll", pravidla.roll(3, ScriptedDice([5, 2, 4]), target=5)),
        ("pravidla contest", pravidla.contest(2, 2, ScriptedDice([6, 1, 1, 2, 5, 5, 3, 3]))),
        ("pravidla tug", pravidla.tug_round(0, 3, 2, 1, ScriptedDice([6, 6, 2]))),
        ("dramatic roll", dramatic.roll(3, 7, ScriptedDice([10, 1, 8, 9]), specialty=True, willpower=True)),
        ("nightwanderers roll", nightwanderers.roll(2, ScriptedDice([4, 6]), 5, 1, pain=1)),
        ("nightwanderers contest", nightwanderers.contest(1, 1, ScriptedDice([5, 2]))),
        ("nightwanderers stealth", nightwanderers.stealth(2, 1, ScriptedDice([4, 4, 4]))),
        ("nightwanderers tug", nightwanderers_tactics.tug_round(0, 2, (1, 1), ScriptedDice([6, 1]))),
        ("decanter roll", decanter.roll(3, ScriptedDice([10, 7, 1]), dc=2)),
        ("decanter contest", decanter.contest(2, 1, ScriptedDice([8, 8, 2]))),
        ("nightcap roll", nightcap.roll(0, ScriptedDice([10]))),
        (
            "nightcap contest",
            nightcap.contest(nightcap.roll(2, ScriptedDice([9, 3])), nightcap.roll(1, ScriptedDice([1]))),
        ),
    ]


@pytest.mark.parametrize(("what", "rolled"), _systems_rolls(), ids=[w for w, _ in _systems_rolls()])
def test_a_systems_result_reads_back_into_its_model(what: str, rolled: Any) -> None:
    model = rolled.result()
    stored = rolled.as_result()
    assert stored == model.as_json()
    assert read_result(stored) == model
    assert read_result(stored).as_json() == stored  # type: ignore[union-attr]
    assert stored["kind"] == ("contest" if isinstance(model, ContestResult) else "roll")
    if isinstance(model, ContestResult):
        assert all(isinstance(side, RollResult) for side in model.sides)
        assert model.winner in (0, 1, None)
    else:
        assert model.dice == tuple(stored["dice"])


def test_a_notation_roll_reads_back() -> None:
    expression = notation_parse.parse("2d6+3")
    stored = notation_result(expression, notation_roll.roll(expression, ScriptedDice([2, 5])))
    model = read_result(stored)
    assert isinstance(model, NotationResult)
    assert (model.total, model.dice, model.expression) == (10, (2, 5), stored["expression"])
    assert model.as_json() == stored


# --------------------------------------------------------------------------- what adapters read


def test_the_cores_stamps_ride_along_and_read_typed() -> None:
    stored = {
        **pravidla.roll(1, ScriptedDice([4])).as_result(),
        "who": "Mira",
        "id": "k3f9m",
        "secret": True,
    }
    roll = roll_of(stored)
    assert roll is not None
    assert (roll.who, roll.roll_id, roll.secret, roll.willpower) == ("Mira", "k3f9m", True, False)
    assert roll.details["target"] == 4
    assert roll.as_json() == stored


def test_a_third_party_roll_needs_only_its_dice() -> None:
    """A system the gateway never heard of writes what it likes; the adapters still draw it."""
    roll = roll_of(
        {"kind": "roll", "system": "tarot", "who": "Mira", "dice": [6], "total": 6, "degree": "fortune"}
    )
    assert roll is not None and (roll.system, roll.pool, roll.total, roll.degree) == (
        "tarot",
        None,
        6,
        "fortune",
    )
    bare = roll_of({"kind": "roll", "dice": [7], "total": 1})
    assert bare is not None and bare.degree is None and bare.system is None


def test_contest_names_fall_back_to_each_sides_who() -> None:
    side = {"kind": "roll", "dice": [3], "degree": "failure"}
    contest = ContestResult.from_json(
        {
            "kind": "contest",
            "sides": [{**side, "who": "Ana"}, {**side, "who": "Ben"}],
            "winner": None,
            "margin": 0,
        }
    )
    assert contest.names == ("Ana", "Ben") and contest.margin == 0 and contest.outcome is None
    named = ContestResult.from_json({**contest.as_json(), "names": ["Mira"]})
    assert named.names == ("Mira", "Ben")


@pytest.mark.parametrize(
    "data",
    [
        None,
        {},
        {"kind": "sheet", "name": "Mira"},
        {"kind": "roll", "dice": "4 5"},
        {"kind": "roll", "dice": [4, True]},
        {"kind": "roll", "dice": [4], "pool": "many"},
        {"kind": "roll", "dice": [4], "degree": 3},
        {"kind": "contest", "sides": []},
        {"kind": "contest", "sides": [{"kind": "roll"}]},
        {"kind": "dice", "expression": "2d6", "total": 7, "rolls": "x", "dice": [3, 4]},
        {"kind": "harm", "dice": [3], "total": 1},  # a Night Wanderers soak: dice, but no roll
    ],
)
def test_anything_else_reads_as_none(data: Any) -> None:
    assert read_result(data) is None
    assert roll_of(data) is None


def test_from_json_refuses_another_kind() -> None:
    with pytest.raises(ResultError):
        ContestResult.from_json({"kind": "roll", "dice": [1]})
    with pytest.raises(ResultError):
        NotationResult.from_json({"kind": "roll", "dice": [1]})
    with pytest.raises(ResultError):
        RollResult("x", 1, (1,), 1, None, details={"dice": [2]})  # a detail may not shadow a field


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=6,
)
keys = st.sampled_from(
    ["kind", "system", "pool", "dice", "total", "degree", "successes", "sides", "winner", "who"]
)


@settings(suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(
    st.dictionaries(keys | st.text(max_size=6), json_values, max_size=6),
    st.sampled_from(["roll", "contest", "dice", "odds"]),
)
def test_read_never_raises_and_what_it_reads_round_trips(data: dict[str, Any], kind: str) -> None:
    data = {**data, "kind": kind}
    found = read_result(data)
    if found is not None:
        again = read_result(found.as_json())
        assert again == found
