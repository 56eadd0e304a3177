"""Night Wanderers' ``contest_ties`` house rule: how a tied contest ("Споры") is settled (the book:
rolled again). Scripted contests through the router for each value, the exact odds against a full
enumeration of the contest roll itself, seeded contests against the exact odds, and refusals."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import ScriptedDice, SeededDice
from gateway.rules import binomial
from gateway.testing import Chat
from plugins.nightwanderers import mechanics as m
from tests.helpers.chat import playing
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.house_rules import house, rolled

RULES = ("attacker", "defender", "standoff")
WINNER = {"attacker": 0, "defender": 1, "standoff": None}


@pytest.mark.parametrize("rule", RULES)
def test_a_tie_is_settled_in_one_round(rule: str) -> None:
    dice = ScriptedDice([4, 1, 5, 1, 6, 6])  # 1 success each; the last two faces stay unrolled
    outcome = m.contest(2, 2, dice, ties=rule)  # type: ignore[arg-type]
    assert dice.remaining == 2 and len(outcome.rounds) == 1
    assert (outcome.winner, outcome.tie) == (WINNER[rule], rule)
    # The winner's quality is read from its successes, as in any contest.
    assert [s.degree for s in outcome.sides] == [
        ("done" if outcome.winner == i else "failure") for i in (0, 1)
    ]


def test_the_book_rolls_ties_again_and_gives_up_after_the_limit() -> None:
    outcome = m.contest(1, 1, ScriptedDice([6, 6, 5, 1]))
    assert (outcome.winner, outcome.tie, len(outcome.rounds)) == (0, None, 2)
    with pytest.raises(m.Stalemate):
        m.contest(1, 1, ScriptedDice([1] * 10), max_rounds=5)
    # Any other rule never re-rolls, so it never runs out of rounds.
    assert m.contest(1, 1, ScriptedDice([1, 1]), max_rounds=1, ties="standoff").winner is None


def enumerated(left: int, right: int, difficulty: int, rule: str) -> dict[int | None, Fraction]:
    wins: Counter[int | None] = Counter()
    for faces in itertools.product(range(1, 7), repeat=left + right):
        outcome = m.contest(left, right, ScriptedDice(list(faces)), difficulty, ties=rule)  # type: ignore[arg-type]
        wins[outcome.winner] += 1
    total = 6 ** (left + right)
    return {k: Fraction(v, total) for k, v in wins.items()}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("left", "right", "difficulty"), [(1, 1, 2), (2, 2, 4), (3, 1, 6), (1, 3, 5)])
def test_exact_odds_equal_enumeration(rule: str, left: int, right: int, difficulty: int) -> None:
    first, second, tie = binomial.settled(left, right, difficulty, sides=6, ties=rule)
    found = enumerated(left, right, difficulty, rule)
    assert (found.get(0, Fraction(0)), found.get(1, Fraction(0))) == (first, second)
    assert found.get(None, Fraction(0)) == (tie if rule == "standoff" else 0)


@pytest.mark.parametrize(
    ("rule", "seed"), [("reroll", 61), ("attacker", 62), ("defender", 63), ("standoff", 64)]
)
def test_seeded_contests_follow_the_exact_odds(rule: str, seed: int) -> None:
    n, dice = 20_000, SeededDice(seed)
    observed = Counter(m.contest(4, 3, dice, 5, ties=rule).winner for _ in range(n))  # type: ignore[arg-type]
    first, second, tie = binomial.settled(4, 3, 5, sides=6, ties=rule)
    exact = {0: first, 1: second, 2: tie if rule == "standoff" else Fraction(0)}
    stat, df = binned_chi_square(Counter({2 if k is None else k: v for k, v in observed.items()}), exact, n)
    assert df >= 1 and stat < chi_square_bound(df), (stat, df)


# --- through the router -------------------------------------------------------------------------------


async def test_defender_in_russian(nw: Chat) -> None:
    await house(nw, "contest_ties defender", st="st")
    result, text = await rolled(nw, "roll 2 vs 2", [4, 1, 5, 1])
    assert (result["winner"], result["tie"], result["rerolls"]) == (1, "defender", 0)
    assert result["house_rules"] == {"contest_ties": "defender"}
    assert text == (
        "Спор, трудность 4. Alice (2 кубика): 4 1 → 1 успех. Соперник — НПС (2 кубика): 5 1 → 1 успех."
        f" Ничья: побеждает защищающийся — НПС. [домашние правила: contest_ties=defender] #{result['id']}"
    ), text
    result, text = await rolled(nw, "roll 2 vs 2", [1, 1, 5, 1])
    assert result["winner"] == 1 and "house_rules" not in result and "[домашние" not in text


async def test_attacker_and_standoff_in_english(nw: Chat) -> None:
    assert (await nw.one("lang en", as_="alice")).error is None
    await house(nw, "contest_ties attacker", st="st")
    result, text = await rolled(nw, "roll 1 vs 1", [6, 6])
    assert (result["winner"], result["tie"]) == (0, "attacker")
    assert text.endswith(
        f"A tie: Alice wins it as the attacker. [house: contest_ties=attacker] #{result['id']}"
    ), text
    await house(nw, "contest_ties standoff", st="st")
    result, text = await rolled(nw, "roll 1 vs 1 diff 3", [1, 2])
    assert (result["winner"], result["tie"]) == (None, "standoff")
    assert text.endswith(f"A tie: nobody wins. [house: contest_ties=standoff] #{result['id']}"), text
    shown = await nw.one(f"verify {result['id']}")
    assert shown.error is None and "no winner" in shown.text, shown.text


async def test_a_default_difficulty_that_made_the_tie_is_named(nw: Chat) -> None:
    await house(nw, "default_difficulty 5", st="st")
    # At 5: 1 against 0, Alice wins at once; at the book's 4 it would have tied and been rolled again.
    result, text = await rolled(nw, "roll 2 vs 2", [5, 1, 4, 1])
    assert result["winner"] == 0 and result["house_rules"] == {"default_difficulty": 5}
    assert text.endswith(f"[домашние правила: default_difficulty=5] #{result['id']}"), text


@pytest.mark.parametrize("rule", ["reroll", *RULES])
async def test_contest_odds_obey_exactly(nw: Chat, rule: str) -> None:
    if rule != "reroll":
        await house(nw, f"contest_ties {rule}", st="st")
    reply = await nw.one("odds 2 vs 3 diff 5")
    assert reply.error is None and reply.result is not None, reply.text
    first, second, tie = binomial.settled(2, 3, 5, sides=6, ties=rule)
    assert reply.result["exact"] == [str(first), str(second)] and reply.result["exact_tie"] == str(tie)
    assert reply.result["ties"] == rule
    assert reply.text.endswith(f" [домашние правила: contest_ties={rule}]") == (rule != "reroll"), reply.text


async def test_the_russian_odds_line(nw: Chat) -> None:
    await house(nw, "contest_ties standoff", st="st")
    reply = await nw.one("odds 1 vs 1")
    assert reply.text == (
        "Шансы для 1 кубика против 1 кубика, трудность 4: первая сторона побеждает с вероятностью"
        " 25,0\u00a0%, вторая — 25,0\u00a0%; ничья, в которой не побеждает никто, — 50,0\u00a0%."
        " [домашние правила: contest_ties=standoff]"
    ), reply.text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "house set contest_ties ничья",
            "contest_ties принимает одно из значений: reroll, attacker, defender, standoff, а не «ничья».",
        ),
        (
            "house set contest_ties on",
            "contest_ties принимает одно из значений: reroll, attacker, defender, standoff, а не «on».",
        ),
        ("house reset contest_ties", "contest_ties здесь уже по умолчанию: reroll."),
    ],
)
async def test_refusals(nw: Chat, line: str, expected: str) -> None:
    reply = await nw.one(line, as_="st", st=True)
    assert reply.error is not None and reply.text == expected


async def test_house_lists_the_switch_in_russian(nw: Chat) -> None:
    shown = (await nw.one("house")).text
    assert (
        "contest_ties = reroll (по книге: reroll; «Споры»: «Ничьи перекидываются»): ничья в споре: бросок"
        " повторяется (reroll)"
    ) in shown, shown


async def test_on_every_engine_the_rule_is_stored_and_logged(vault_url: str) -> None:
    """The switch goes through the vault (the ``house_rule`` row, the roll log): on each engine."""
    async with playing(vault_url, "nightwanderers") as chat:
        await house(chat, "contest_ties attacker")
        result, _ = await rolled(chat, "roll 1 vs 1", [4, 4])
        assert (result["winner"], result["tie"]) == (0, "attacker")
        shown = await chat.one(f"verify {result['id']}", as_="someone")
        assert "побеждает Alice" in shown.text, shown.text
