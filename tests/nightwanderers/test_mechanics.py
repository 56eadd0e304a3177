"""Pure Night Wanderers mechanics and odds: exact tables, enumeration and seeded statistics."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from gateway.core.dice import ScriptedDice, SeededDice
from gateway.rules import binomial
from plugins.nightwanderers import mechanics, odds
from tests.helpers.chi_square import assert_binomial


def test_boost_cost_is_triangular() -> None:
    assert mechanics.boost_cost(3) == 1 + 2 + 3 == 6
    assert [mechanics.boost_cost(n) for n in range(1, 6)] == [1, 3, 6, 10, 15]
    assert mechanics.boost_cost(1) + mechanics.boost_cost(2, already=1) == 6


def test_health_bands_for_25_and_10_hp() -> None:
    bands25 = [mechanics.band(hp, 25) for hp in range(25, 0, -1)]
    assert bands25 == ["optimal"] * 5 + ["normal"] * 5 + ["medium"] * 5 + ["dangerous"] * 5 + ["critical"] * 5
    bands10 = [mechanics.band(hp, 10) for hp in range(10, 0, -1)]
    assert bands10 == ["optimal"] * 2 + ["normal"] * 2 + ["medium"] * 2 + ["dangerous"] * 2 + ["critical"] * 2
    assert mechanics.band(0, 25) is None


def test_pain_and_the_one_die_floor() -> None:
    assert [mechanics.pain(hp, 25) for hp in (25, 21, 20, 16, 15, 10, 5, 1)] == [0, 0, 1, 1, 2, 2, 2, 2]
    assert mechanics.pain(3, 25, frenzy=True) == 0
    assert mechanics.after_pain(4, 2) == (2, 2)
    assert mechanics.after_pain(2, 2) == (1, 1)
    assert mechanics.after_pain(1, 2) == (1, 0)


def test_hunger_thresholds() -> None:
    assert [mechanics.hunger(bp) for bp in (10, 6, 5, 3, 2, 1, 0)] == [
        "sated",
        "sated",
        "hungry",
        "hungry",
        "ravenous",
        "ravenous",
        "torpor",
    ]
    assert mechanics.frenzy_difficulty(4, "ravenous", True) == 5
    assert mechanics.frenzy_difficulty(4, "hungry", True) == 4
    assert mechanics.frenzy_difficulty(4, "ravenous", False) == 4


def test_difficulty_clamp_and_quality() -> None:
    assert [mechanics.clamp_difficulty(d) for d in (0, 2, 6, 7, 9)] == [2, 2, 6, 6, 6]
    assert [mechanics.quality(k) for k in range(6)] == [
        "failure",
        "done",
        "good",
        "excellent",
        "masterful",
        "masterful",
    ]
    assert mechanics.quality(1, need=2) == "failure"


def test_damage_soak_and_death() -> None:
    assert [mechanics.halve(d) for d in (1, 2, 3, 4, 5)] == [1, 1, 1, 2, 2]
    assert mechanics.take_damage("vampire", 3, 5, deep=False) == mechanics.Harm(3, 0, False)
    assert mechanics.take_damage("vampire", 3, 5, deep=True) == mechanics.Harm(3, 0, True)
    assert mechanics.take_damage("vampire", 3, 3, deep=True) == mechanics.Harm(3, 0, False)
    assert mechanics.take_damage("human", 2, 5, deep=False) == mechanics.Harm(2, -3, False)
    assert mechanics.take_damage("human", 2, 20, deep=False) == mechanics.Harm(2, -10, True)
    assert mechanics.status("vampire", 5, 0) == "torpor"
    assert mechanics.status("werewolf", 0, None) == "unconscious"


def test_sun_and_fire() -> None:
    assert mechanics.exposure("sun", "direct", 4) == 4
    assert mechanics.exposure("sun", "indirect", 4) == 2
    assert mechanics.exposure("sun", "indirect", 1) == 0
    assert mechanics.exposure("fire", "small", 4) == 2
    assert mechanics.exposure("fire", "large", 4) == 4
    assert mechanics.exposure("fire", "small", surprise=True) == 1
    assert mechanics.exposure("fire", "large", surprise=True) == 2


def test_melee_hit_rule_and_stealth_outcomes() -> None:
    assert mechanics.attack_hits(2, 2) and mechanics.attack_hits(2, 1)
    assert not mechanics.attack_hits(1, 2) and not mechanics.attack_hits(0, 0)
    assert mechanics.stealth(1, 1, ScriptedDice([4, 4])).outcome == "heard"
    assert mechanics.stealth(1, 1, ScriptedDice([4, 3]), inspection_difficulty=3).outcome == "heard"
    assert mechanics.stealth(1, 1, ScriptedDice([4, 3])).outcome == "unseen"
    assert mechanics.stealth(1, 1, ScriptedDice([1, 6])).outcome == "noticed"


def test_initiative_two_d6_lower_first_ties_one_d6_rerolled() -> None:
    people = [mechanics.Combatant(n) for n in ("A", "B")]
    # 2d6: A 3+3, B 4+2 tie on 6; 1d6: 5 and 5 again, then 2 and 1 -> B first.
    order = mechanics.initiative(people, ScriptedDice([3, 3, 4, 2, 5, 5, 2, 1]))
    assert order.first == ("B", "A")
    assert order.dice == {"A": [3, 3, 5, 2], "B": [4, 2, 5, 1]}


@pytest.mark.parametrize("pool", [1, 2, 3, 4])
@pytest.mark.parametrize("difficulty", [2, 3, 4, 5, 6])
def test_quality_odds_match_enumeration(pool: int, difficulty: int) -> None:
    counts = dict.fromkeys(mechanics.QUALITIES, 0)
    for faces in itertools.product(range(1, 7), repeat=pool):
        counts[mechanics.score(pool, faces, difficulty).degree] += 1
    total = 6**pool
    assert odds.qualities(pool, difficulty) == {q: Fraction(c, total) for q, c in counts.items()}


@pytest.mark.parametrize(("left", "right", "difficulty"), [(1, 1, 4), (2, 3, 5), (3, 1, 2)])
def test_contest_odds_match_enumeration(left: int, right: int, difficulty: int) -> None:
    win = lose = 0
    for a in itertools.product(range(1, 7), repeat=left):
        sa = mechanics.count_successes(a, difficulty)
        for b in itertools.product(range(1, 7), repeat=right):
            sb = mechanics.count_successes(b, difficulty)
            win, lose = win + (sa > sb), lose + (sa < sb)
    first, second, _ = binomial.contest(left, right, difficulty, sides=6)
    assert (first, second) == (Fraction(win, win + lose), Fraction(lose, win + lose))


@pytest.mark.parametrize(("pool", "difficulty", "seed"), [(2, 4, 31), (4, 5, 32), (6, 3, 33)])
def test_seeded_successes_follow_the_binomial(pool: int, difficulty: int, seed: int) -> None:
    dice = SeededDice(seed)
    assert_binomial(lambda: mechanics.roll(pool, dice, difficulty).successes, pool, (7 - difficulty) / 6)
