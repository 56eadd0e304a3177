"""Pure Pravidla mechanics and odds: exact cases, enumeration, and seeded statistics."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from gateway.core.dice import ScriptedDice, SeededDice
from gateway.rules import binomial
from plugins.pravidla import mechanics
from tests.helpers.chi_square import assert_binomial, chi_square, critical


def test_score_counts_faces_at_or_above_the_target() -> None:
    roll = mechanics.score(4, [1, 3, 4, 6], target=4)
    assert (roll.successes, roll.degree) == (2, "success")
    assert mechanics.score(4, [1, 3, 4, 6], target=5).successes == 1
    assert mechanics.score(2, [1, 5], need=2).degree == "failure"
    assert mechanics.score(2, [4, 5], need=2).degree == "success"
    assert mechanics.score(3, [1, 2, 3]).degree == "failure"


def test_contest_rerolls_ties_until_broken() -> None:
    dice = ScriptedDice([4, 1, 1, 6, 2, 2, 3, 3, 5, 5, 5, 1])
    result = mechanics.contest(2, 2, dice)
    assert result.winner == 0 and len(result.rounds) == 3
    assert result.sides[0].dice == (4, 1, 2, 2, 5, 5) and result.sides[1].dice == (1, 6, 3, 3, 5, 1)
    assert dice.remaining == 0


def test_contest_gives_up_after_the_limit() -> None:
    with pytest.raises(mechanics.Stalemate):
        mechanics.contest(1, 1, ScriptedDice([1] * 10), max_rounds=5)


def test_tug_round_moves_the_balance_and_declares_a_winner() -> None:
    first = mechanics.tug_round(0, 3, 2, 2, ScriptedDice([6, 6, 1, 1]))
    assert (first.difference, first.balance, first.winner) == (2, 2, None)
    second = mechanics.tug_round(2, 3, 2, 2, ScriptedDice([6, 1, 1, 1]))
    assert (second.balance, second.winner) == (3, 0)
    third = mechanics.tug_round(-2, 3, 2, 2, ScriptedDice([1, 1, 6, 1]))
    assert (third.balance, third.winner) == (-3, 1)


def test_three_way_tie_breaks_with_rerolls_among_the_still_tied() -> None:
    people = [mechanics.Combatant(n, stamina=2, wits=2) for n in ("A", "B", "C")]
    # A 4, B 4, C 6 -> C first; A and B roll again: 2, 5 -> B, A.
    order = mechanics.initiative(people, ScriptedDice([4, 4, 6, 2, 5]))
    assert order.first == ("C", "B", "A")
    assert order.dice == {"A": [4, 2], "B": [4, 5], "C": [6]}


@pytest.mark.parametrize("pool", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("target", [2, 3, 4, 5, 6])
def test_odds_match_enumeration(pool: int, target: int) -> None:
    counts = [0] * (pool + 1)
    for faces in itertools.product(range(1, 7), repeat=pool):
        counts[mechanics.score(pool, faces, target).successes] += 1
    total = 6**pool
    assert binomial.distribution(pool, target, sides=6) == [Fraction(c, total) for c in counts]
    for need in range(1, pool + 1):
        assert binomial.at_least(pool, target, need, sides=6) == Fraction(sum(counts[need:]), total)


@pytest.mark.parametrize(("left", "right", "target"), [(1, 1, 4), (2, 1, 4), (3, 2, 5), (2, 3, 3)])
def test_contest_odds_match_enumeration(left: int, right: int, target: int) -> None:
    win = lose = tie = 0
    for a in itertools.product(range(1, 7), repeat=left):
        sa = mechanics.count_successes(a, target)
        for b in itertools.product(range(1, 7), repeat=right):
            sb = mechanics.count_successes(b, target)
            win, lose, tie = win + (sa > sb), lose + (sa < sb), tie + (sa == sb)
    first, second, p_tie = binomial.contest(left, right, target, sides=6)
    assert first == Fraction(win, win + lose) and second == Fraction(lose, win + lose)
    assert p_tie == Fraction(tie, 6 ** (left + right))


@pytest.mark.parametrize(("pool", "target", "seed"), [(1, 4, 11), (3, 4, 12), (5, 5, 13), (8, 6, 14)])
def test_seeded_successes_follow_the_binomial(pool: int, target: int, seed: int) -> None:
    """20,000 seeded rolls against the exact binomial (computed here, not by the odds module)."""
    dice = SeededDice(seed)
    assert_binomial(lambda: mechanics.roll(pool, dice, target).successes, pool, (7 - target) / 6)


def test_seeded_contests_follow_the_exact_win_chance() -> None:
    n = 10_000
    dice = SeededDice(21)
    wins = sum(mechanics.contest(3, 2, dice).winner == 0 for _ in range(n))
    first, second, _ = binomial.contest(3, 2, 4, sides=6)
    expected = [n * float(first), n * float(second)]
    assert chi_square([wins, n - wins], expected) < critical(1)
