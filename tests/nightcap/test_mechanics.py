"""Nightcap dice read exactly as RULINGS says, with scripted faces."""

from __future__ import annotations

import pytest

from gateway.core.dice import ScriptedDice
from plugins.nightcap import mechanics
from plugins.nightcap.mechanics import contest, degree, face_value, roll, score


@pytest.mark.parametrize(
    ("face", "value"), [(1, -1), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 1), (8, 1), (9, 1), (10, 2)]
)
def test_face_values(face: int, value: int) -> None:
    assert face_value(face) == value


@pytest.mark.parametrize(
    ("dice_total", "total", "expected"),
    [
        (-3, -3, "botch"),
        (-1, -1, "botch"),
        (-1, 0, "botch"),  # Willpower moves the total but does not stop a botch
        (0, 0, "failure"),
        (1, 1, "marginal"),
        (2, 2, "solid"),
        (3, 3, "solid"),
        (4, 4, "strong"),
        (5, 5, "strong"),
        (6, 6, "overwhelming"),
        (12, 12, "overwhelming"),
        (0, 1, "marginal"),  # a Willpower success on a failed roll
        (5, 6, "overwhelming"),
    ],
)
def test_degree_boundaries(dice_total: int, total: int, expected: str) -> None:
    assert degree(dice_total, total) == expected


def test_mira_picks_the_lock() -> None:
    result = roll(3, ScriptedDice([9, 5, 10]))
    assert (result.dice, result.dice_total, result.total, result.degree) == ((9, 5, 10), 3, 3, "solid")


def test_dorian_lies_to_the_detective_deadlock() -> None:
    dice = ScriptedDice([7, 8, 3, 1, 8, 6, 4, 2])
    dorian, detective = roll(4, dice), roll(3 + 1, dice)
    assert (dorian.total, detective.total) == (1, 1)
    result = contest(dorian, detective)
    assert (result.margin, result.winner, result.outcome) == (0, None, "deadlock")


@pytest.mark.parametrize(
    ("face", "total", "expected"), [(10, 1, "marginal"), (1, -1, "botch"), (7, 0, "failure")]
)
@pytest.mark.parametrize("pool", [0, -2])
def test_chance_die(pool: int, face: int, total: int, expected: str) -> None:
    result = roll(pool, ScriptedDice([face]))
    assert result.chance_die
    assert (result.dice, result.total, result.degree) == ((face,), total, expected)


def test_willpower_adds_one_after_the_dice() -> None:
    result = roll(2, ScriptedDice([3, 4]), willpower=True)
    assert (result.dice_total, result.total, result.degree) == (0, 1, "marginal")


def test_willpower_cannot_save_a_botch() -> None:
    result = roll(2, ScriptedDice([1, 4]), willpower=True)
    assert (result.dice_total, result.total, result.degree) == (-1, 0, "botch")


@pytest.mark.parametrize(
    ("left", "right", "margin", "winner", "outcome"),
    [
        ((7,), (2,), 1, 0, "narrow"),
        ((2,), (8, 9), 2, 1, "clear"),
        ((10, 8), (2,), 3, 0, "clear"),
        ((10, 10), (3,), 4, 0, "decisive"),
        ((1,), (1, 1), 1, None, "both_botch"),
        ((1,), (4,), 1, 1, "narrow"),
    ],
)
def test_contest_margins(
    left: tuple[int, ...], right: tuple[int, ...], margin: int, winner: int | None, outcome: str
) -> None:
    result = contest(score(len(left), left), score(len(right), right))
    assert (result.margin, result.winner, result.outcome) == (margin, winner, outcome)


def test_script_running_out_is_an_error_not_a_random_face() -> None:
    from gateway.core.errors import DiceScriptExhausted

    with pytest.raises(DiceScriptExhausted):
        mechanics.roll(3, ScriptedDice([9, 9]))
