"""Dramatic Systems' pure mechanics with scripted faces: one test (at least) per rule in RULINGS."""

from __future__ import annotations

import pytest

from gateway.core.dice import ScriptedDice
from plugins.dramatic import mechanics as m


def dice(*faces: int) -> ScriptedDice:
    return ScriptedDice(faces)


def test_successes_at_or_above_the_difficulty() -> None:
    roll = m.roll(6, 7, dice(9, 5, 10, 7, 6, 3))
    assert (roll.hits, roll.ones, roll.successes, roll.degree) == (3, 0, 3, "success")


def test_ones_cancel_successes() -> None:
    roll = m.roll(4, 6, dice(8, 9, 1, 1))
    assert (roll.hits, roll.ones, roll.successes, roll.degree) == (2, 2, 0, "failure")


def test_net_successes_never_below_zero() -> None:
    roll = m.roll(4, 6, dice(8, 1, 1, 1))
    assert (roll.successes, roll.degree) == (0, "failure")  # a success was rolled: no botch


def test_botch_is_a_one_and_no_success() -> None:
    assert m.roll(3, 6, dice(1, 5, 2)).degree == "botch"
    assert m.roll(3, 6, dice(2, 5, 2)).degree == "failure"


def test_willpower_adds_a_success() -> None:
    roll = m.roll(3, 6, dice(2, 5, 2), willpower=True)
    assert (roll.successes, roll.degree, roll.willpower) == (1, "success", True)


def test_ones_cancel_the_willpower_success_too() -> None:
    roll = m.roll(3, 6, dice(7, 1, 1), willpower=True)
    assert (roll.successes, roll.degree) == (0, "failure")


def test_willpower_does_not_prevent_a_botch() -> None:
    roll = m.roll(3, 6, dice(1, 5, 2), willpower=True)
    assert (roll.successes, roll.degree) == (0, "botch")


def test_specialty_rerolls_tens_again_and_again() -> None:
    # Two 10s: two more dice (10, 4); the new 10 rolls once more (7).
    roll = m.roll(3, 6, dice(10, 10, 2, 10, 4, 7), specialty=True)
    assert roll.dice == (10, 10, 2, 10, 4, 7)
    assert roll.extra == (10, 4, 7)
    assert (roll.hits, roll.extra_hits, roll.successes) == (2, 2, 4)


def test_a_one_on_a_specialty_die_cancels_nothing() -> None:
    roll = m.roll(2, 6, dice(10, 3, 1), specialty=True)
    assert roll.extra == (1,) and roll.successes == 1 and roll.degree == "success"


def test_tens_are_not_rerolled_without_a_specialty() -> None:
    roll = m.roll(2, 6, dice(10, 10))
    assert roll.extra == () and roll.successes == 2


@pytest.mark.parametrize(("asked", "used"), [(1, 2), (2, 2), (6, 6), (10, 10), (14, 10), (-3, 2)])
def test_difficulty_is_clamped(asked: int, used: int) -> None:
    assert m.clamp_difficulty(asked) == used
    assert m.roll(1, asked, dice(5)).difficulty == used


def test_retries_add_one_difficulty_each() -> None:
    assert [m.retry_difficulty(6, n) for n in range(6)] == [6, 7, 8, 9, 10, 10]


def test_resisted_successes_cancel_and_the_defender_wins_ties() -> None:
    attacker = m.roll(3, 6, dice(7, 8, 9))
    defender = m.roll(3, 6, dice(6, 2, 2))
    won = m.resist(attacker, defender)
    assert (won.winner, won.margin) == (0, 2)
    tie = m.resist(m.roll(2, 6, dice(7, 2)), m.roll(2, 6, dice(9, 3)))
    assert (tie.winner, tie.margin) == (1, 0)
    both_nothing = m.resist(m.roll(1, 6, dice(2)), m.roll(1, 6, dice(3)))
    assert both_nothing.winner == 1


def test_empty_pool_rolls_nothing() -> None:
    assert m.roll(0, 6, dice()).degree == "failure"
    assert m.roll(0, 6, dice(), willpower=True).successes == 1


def test_result_shape() -> None:
    result = m.roll(3, 6, dice(10, 1, 7, 4), specialty=True, willpower=False).as_result()
    assert result == {
        "kind": "roll",
        "system": "dramatic",
        "pool": 3,
        "difficulty": 6,
        "dice": [10, 1, 7, 4],
        "extra_dice": [4],
        "successes": 1,
        "total": 1,
        "degree": "success",
        "willpower": False,
        "specialty": True,
        "hits": 2,
        "extra_hits": 0,
        "ones": 1,
    }
