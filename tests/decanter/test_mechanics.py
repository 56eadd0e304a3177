"""Decanter's pure mechanics with scripted faces: one test (at least) per rule in RULINGS."""

from __future__ import annotations

import pytest

from gateway.core.dice import ScriptedDice
from gateway.core.errors import DiceScriptExhausted
from plugins.decanter import mechanics as m


def dice(*faces: int) -> ScriptedDice:
    return ScriptedDice(faces)


def test_face_values() -> None:
    assert [m.face_value(f) for f in range(1, 11)] == [-1, 0, 0, 0, 0, 1, 1, 1, 1, 2]


@pytest.mark.parametrize(
    ("name", "dc"),
    [
        ("easy", 1),
        ("routine", 2),
        ("challenging", 3),
        ("formidable", 4),
        ("hard", 5),
        ("very hard", 6),
        ("very-hard", 6),
        ("VeryHard", 6),
        ("almost impossible", 7),
        ("superhuman", 8),
    ],
)
def test_dc_table_by_name(name: str, dc: int) -> None:
    assert m.dc_by_name(name) == dc


def test_dc_by_unknown_name() -> None:
    assert m.dc_by_name("tricky") is None
    assert m.dc_title(12) == "superhuman"


@pytest.mark.parametrize(
    ("successes", "dc", "degree"),
    [
        (-2, 3, "botch"),
        (0, 3, "botch"),
        (1, 3, "setback"),
        (2, 3, "setback"),
        (3, 3, "success"),
        (4, 3, "extra"),
    ],
)
def test_degree_boundaries(successes: int, dc: int, degree: str) -> None:
    assert m.degree(successes, dc) == degree


def test_plain_roll_reads_net_successes() -> None:
    roll = m.roll(5, dice(9, 5, 10, 1, 7), dc=4)
    assert roll.dice == (9, 5, 10, 1, 7)
    assert roll.successes == 3  # 1 + 0 + 2 - 1 + 1
    assert roll.degree == "setback"


def test_extra_successes_are_counted() -> None:
    roll = m.roll(4, dice(10, 10, 6, 2), dc=3)
    assert (roll.successes, roll.degree, roll.extra_successes) == (5, "extra", 2)
    assert roll.as_result()["extra_successes"] == 2


def test_botch_when_ones_eat_every_success() -> None:
    roll = m.roll(3, dice(1, 1, 6), dc=2)
    assert (roll.successes, roll.degree) == (-1, "botch")


def test_automatic_success_only_above_double_the_dc() -> None:
    exact = m.roll(6, dice(2, 2, 2, 2, 2, 2), dc=3)  # 6 is not more than double 3: it rolls
    assert not exact.automatic and exact.degree == "botch"
    auto = m.roll(7, dice(), dc=3)
    assert auto.automatic and auto.degree == "automatic" and auto.dice == () and auto.successes == 3


def test_force_rolls_anyway() -> None:
    forced = m.roll(7, dice(1, 1, 1, 1, 1, 1, 1), dc=3, force=True)
    assert forced.forced and not forced.automatic
    assert (forced.successes, forced.degree) == (-7, "botch")


def test_npc_dc_is_half_the_pool_plus_one() -> None:
    assert m.npc_dc(3 + 3) == 4  # the book: Dexterity 3 + Firearms 3 is DC 4
    assert [m.npc_dc(n) for n in (0, 1, 2, 5, 7)] == [1, 1, 2, 3, 4]


def test_advantage_keeps_the_better_of_two_rolls() -> None:
    roll = m.roll(3, dice(1, 2, 6, 10, 6, 3), dc=2, quality=1)
    assert roll.dice == (1, 2, 6, 10, 6, 3)
    assert roll.results == (0, 3) and roll.kept == 1
    assert (roll.successes, roll.degree) == (3, "extra")


def test_disadvantage_keeps_the_worse_of_two_rolls() -> None:
    roll = m.roll(3, dice(1, 2, 6, 10, 6, 3), dc=2, quality=-1)
    assert roll.results == (0, 3) and roll.kept == 0
    assert (roll.successes, roll.degree) == (0, "botch")


def test_major_advantage_rerolls_failed_dice_and_adds() -> None:
    # 1 and 4 fail and are rolled again (10, 6); the original 1 still takes one away.
    roll = m.roll(3, dice(1, 4, 7, 10, 6), dc=3, quality=2)
    assert roll.dice == (1, 4, 7, 10, 6)
    assert roll.rerolled == (10, 6)
    assert roll.successes == (-1 + 0 + 1) + (2 + 1)
    assert roll.degree == "success"


def test_major_disadvantage_counts_only_rerolled_successes_minus_original_ones() -> None:
    # 7 and 10 succeeded and are rolled again (6, 2): only those count, minus the original 1.
    roll = m.roll(3, dice(1, 7, 10, 6, 2), dc=2, quality=-2)
    assert roll.rerolled == (6, 2)
    assert roll.successes == 1 + 0 - 1
    assert roll.degree == "botch"


@pytest.mark.parametrize(
    ("qualities", "step"),
    [
        (["madv", "dis"], 1),  # the book's example: Major Advantage then Disadvantage is Advantage
        (["adv", "dis"], 0),
        (["adv", "adv"], 2),
        (["madv", "adv"], 2),
        (["mdis", "mdis"], -2),
        (["mdis", "adv"], -1),
        (["madv", "mdis"], 0),
    ],
)
def test_qualities_stack_and_clamp(qualities: list[str], step: int) -> None:
    assert m.combine_qualities(m.QUALITY_STEPS[q] for q in qualities) == step


def test_take_half_rolls_nothing() -> None:
    roll = m.roll(7, dice(), dc=4, half=True)
    assert (roll.dice, roll.successes, roll.degree, roll.take_half) == ((), 3, "setback", True)


def test_take_half_with_advantage_is_one_roll_against_half() -> None:
    better = m.roll(6, dice(10, 10, 6, 1, 2, 2), dc=3, quality=1, half=True)
    assert better.results == (4, 3) and better.successes == 4 and better.kept == 0
    worse = m.roll(6, dice(10, 10, 6, 1, 2, 2), dc=3, quality=-1, half=True)
    assert worse.results == (4, 3) and worse.successes == 3 and worse.kept == 1


def test_take_half_refuses_major_qualities() -> None:
    with pytest.raises(ValueError):
        m.roll(4, dice(), dc=3, quality=2, half=True)


def test_aid_bonus_is_capped_and_never_negative() -> None:
    helpers = [m.aid(3, dice(10, 10, 6)), m.aid(2, dice(1, 1)), m.aid(4, dice(), npc=True)]
    assert [h.successes for h in helpers] == [5, -2, 2]
    assert m.aid_bonus(helpers, cap=5) == 5
    assert m.aid_bonus(helpers[1:], cap=5) == 2


def test_contest_more_successes_wins() -> None:
    result = m.contest(2, 3, dice(6, 6, 1, 2, 3))
    assert result.winner == 0 and result.decided_by == "successes"
    assert result.sides[0].dice == (6, 6) and result.sides[1].dice == (1, 2, 3)


def test_contest_tie_goes_to_the_larger_pool() -> None:
    result = m.contest(2, 3, dice(6, 2, 6, 2, 2))
    assert result.winner == 1 and result.decided_by == "pool"


def test_contest_equal_pools_reroll_until_the_tie_breaks() -> None:
    faces = (6, 2, 2, 6, 1, 6, 3, 3, 10, 2, 6, 2)
    result = m.contest(2, 2, dice(*faces))
    assert result.winner == 0 and result.decided_by == "reroll"
    assert result.rounds == ((1, 1), (0, 0), (2, 1))
    assert result.sides[0].dice == (6, 2, 1, 6, 10, 2)  # every round's faces, in roll order
    assert result.sides[1].dice == (2, 6, 3, 3, 6, 2)
    assert result.sides[0].successes == 2  # the deciding round's reading


def test_contest_of_empty_pools_never_breaks() -> None:
    assert m.contest(0, 0, dice()).winner is None


def test_extended_target_multiplies_the_dc() -> None:
    assert m.extended_target(4, 3) == 12
    for bad in (1, 6):
        with pytest.raises(ValueError):
            m.extended_target(4, bad)


def test_condition_cost_is_the_shortfall() -> None:
    # The book: 2 successes against DC 4 gives a Condition of "-2 Story Points if you want to resist".
    roll = m.roll(4, dice(6, 6, 2, 2), dc=4)
    assert roll.degree == "setback" and roll.as_result()["shortfall"] == 2
    assert m.shortfall(-1, 3) == 3
    assert "shortfall" not in m.roll(2, dice(6, 6), dc=2).as_result()


def test_story_points_cap() -> None:
    assert m.gain_points(8, 1, 10) == (9, 0)
    assert m.gain_points(8, 5, 10) == (10, 3)


def test_downgrade_steps() -> None:
    assert m.step_down("extra", 1) == "success"
    assert m.step_down("extra", 3) == "botch"
    assert m.step_down("automatic", 1) == "setback"
    assert m.steps_available("setback") == 1
    with pytest.raises(ValueError):
        m.step_down("botch", 1)
    assert m.reread(5, 4, 1) == "success"
    assert m.reread(5, 4) == "extra"


def test_conditions_expire_by_duration_and_channel() -> None:
    conditions = [
        {"name": "Shaken", "duration": "scene", "channel": "c:1"},
        {"name": "Tired", "duration": "night", "channel": "c:1"},
        {"name": "Hunted", "duration": "resolved", "channel": "c:1"},
        {"name": "Elsewhere", "duration": "scene", "channel": "c:2"},
    ]
    kept, expired = m.expire_conditions(conditions, "c:1", ("scene",))
    assert [c["name"] for c in expired] == ["Shaken"]
    kept, expired = m.expire_conditions(conditions, "c:1", ("scene", "night"))
    assert [c["name"] for c in expired] == ["Shaken", "Tired"]
    assert [c["name"] for c in kept] == ["Hunted", "Elsewhere"]


def test_no_silent_dice_when_the_script_runs_out() -> None:
    with pytest.raises(DiceScriptExhausted):
        m.roll(3, dice(6, 6), dc=2)
