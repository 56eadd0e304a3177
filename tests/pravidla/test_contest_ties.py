"""Pravidla's ``contest_ties`` house rule: how a tied contest is settled (the book: rolled again).
Scripted contests through the router for each value, the exact odds against a full enumeration of
the contest roll itself, seeded contests against the exact odds, and ``house set`` refusals."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from gateway.core.dice import ScriptedDice, SeededDice
from gateway.rules import binomial
from gateway.testing import Chat
from plugins.pravidla import mechanics as m
from tests.helpers.chat import playing
from tests.helpers.chi_square import binned_chi_square, chi_square_bound
from tests.helpers.house_rules import house, rolled

RULES = ("attacker", "defender", "standoff")
WINNER = {"attacker": 0, "defender": 1, "standoff": None}


# --- the contest, pure ------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", RULES)
def test_a_tie_is_settled_in_one_round(rule: str) -> None:
    dice = ScriptedDice([4, 1, 5, 1])  # 1 success each
    outcome = m.contest(2, 2, dice, ties=rule)  # type: ignore[arg-type]
    assert dice.remaining == 0 and len(outcome.rounds) == 1
    assert (outcome.winner, outcome.tie) == (WINNER[rule], rule)
    degrees = [side.degree for side in outcome.sides]
    assert degrees == [("success" if outcome.winner == i else "failure") for i in (0, 1)]
    result = outcome.as_result()
    assert (result["winner"], result["tie"], result["rerolls"]) == (WINNER[rule], rule, 0)


@pytest.mark.parametrize("rule", ["reroll", *RULES])
def test_no_tie_no_rule(rule: str) -> None:
    outcome = m.contest(2, 2, ScriptedDice([4, 5, 5, 1]), ties=rule)  # type: ignore[arg-type]
    assert (outcome.winner, outcome.tie) == (0, None) and "tie" not in outcome.as_result()


def enumerated(left: int, right: int, target: int, rule: str) -> dict[int | None, Fraction]:
    """Every face of one round, each run through the contest roll itself: the winner's chances."""
    wins: Counter[int | None] = Counter()
    for faces in itertools.product(range(1, 7), repeat=left + right):
        outcome = m.contest(left, right, ScriptedDice(list(faces)), target, ties=rule)  # type: ignore[arg-type]
        wins[outcome.winner] += 1
    total = 6 ** (left + right)
    return {k: Fraction(v, total) for k, v in wins.items()}


@pytest.mark.parametrize("rule", RULES)
@pytest.mark.parametrize(("left", "right", "target"), [(1, 1, 4), (2, 1, 4), (3, 2, 5), (2, 3, 3), (0, 2, 4)])
def test_exact_odds_equal_enumeration(rule: str, left: int, right: int, target: int) -> None:
    first, second, tie = binomial.settled(left, right, target, sides=6, ties=rule)
    found = enumerated(left, right, target, rule)
    assert (found.get(0, Fraction(0)), found.get(1, Fraction(0))) == (first, second)
    assert found.get(None, Fraction(0)) == (tie if rule == "standoff" else 0)
    assert first + second + (tie if rule == "standoff" else 0) == 1


def test_reroll_is_the_books_contest() -> None:
    assert binomial.settled(3, 2, 4, sides=6, ties="reroll") == binomial.contest(3, 2, 4, sides=6)


@pytest.mark.parametrize(
    ("rule", "seed"), [("reroll", 51), ("attacker", 52), ("defender", 53), ("standoff", 54)]
)
def test_seeded_contests_follow_the_exact_odds(rule: str, seed: int) -> None:
    n, dice = 20_000, SeededDice(seed)
    observed = Counter(m.contest(3, 3, dice, 4, ties=rule).winner for _ in range(n))  # type: ignore[arg-type]
    first, second, tie = binomial.settled(3, 3, 4, sides=6, ties=rule)
    exact = {0: first, 1: second, 2: tie if rule == "standoff" else Fraction(0)}
    stat, df = binned_chi_square(Counter({2 if k is None else k: v for k, v in observed.items()}), exact, n)
    assert df >= 1 and stat < chi_square_bound(df), (stat, df)
    assert (None in observed) == (rule == "standoff")


# --- through the router -------------------------------------------------------------------------------


async def test_defender_wins_a_tie_and_the_line_names_the_rule(pr: Chat) -> None:
    assert (await pr.one("lang en", as_="alice")).error is None
    await house(pr, "contest_ties defender", st="st")
    result, text = await rolled(pr, "roll 2 vs 2", [4, 1, 5, 1])
    assert (result["winner"], result["tie"], result["rerolls"]) == (1, "defender", 0)
    assert result["house_rules"] == {"contest_ties": "defender"}
    assert text == (
        "Alice (2 dice) vs NPC (2 dice) against 4: 4 1 → 1 success vs 5 1 → 1 success. A tie: NPC wins"
        f" it as the defender. [house: contest_ties=defender] #{result['id']}"
    )
    # Not a tie: the rule changed nothing and is not named.
    result, text = await rolled(pr, "roll 2 vs 2", [4, 5, 1, 1])
    assert result["winner"] == 0 and "tie" not in result and "house_rules" not in result
    assert "[house" not in text


async def test_attacker_and_standoff_in_czech(pr: Chat) -> None:
    await house(pr, "contest_ties attacker", st="st")
    result, text = await rolled(pr, "roll 1 vs 1", [2, 3])  # no successes on either side: a tie
    assert (result["winner"], result["tie"]) == (0, "attacker")
    assert text.endswith(
        f"Shoda: vítězí útočník Alice. [domácí pravidla: contest_ties=attacker] #{result['id']}"
    ), text
    await house(pr, "contest_ties standoff", st="st")
    result, text = await rolled(pr, "roll 1 vs 1", [6, 6])
    assert (result["winner"], result["tie"]) == (None, "standoff")
    assert [s["degree"] for s in result["sides"]] == ["failure", "failure"]
    assert text.endswith(f"Shoda: nevítězí nikdo. [domácí pravidla: contest_ties=standoff] #{result['id']}")
    shown = await pr.one(f"verify {result['id']}", as_="someone")
    assert shown.error is None and "bez vítěze" in shown.text, shown.text


async def test_the_book_rolls_a_tie_again(pr: Chat) -> None:
    result, text = await rolled(pr, "roll 1 vs 1", [6, 6, 5, 1])
    assert (result["winner"], result["rerolls"]) == (0, 1) and "tie" not in result
    assert "[domácí" not in text


async def test_a_default_target_that_made_the_tie_is_named(pr: Chat) -> None:
    await house(pr, "default_target 5", st="st")
    # At 5: 1 against 0, Alice wins at once; at the book's 4 it would have tied and been rolled again.
    result, text = await rolled(pr, "roll 2 vs 2", [5, 1, 4, 1])
    assert result["winner"] == 0 and result["house_rules"] == {"default_target": 5}
    assert text.endswith(f"[domácí pravidla: default_target=5] #{result['id']}")
    # A named target is the roll's own: nothing to name.
    result, text = await rolled(pr, "roll 2 vs 2 tn 5", [5, 1, 4, 1])
    assert "house_rules" not in result and "[domácí" not in text


@pytest.mark.parametrize("rule", ["reroll", *RULES])
async def test_contest_odds_obey_exactly(pr: Chat, rule: str) -> None:
    if rule != "reroll":
        await house(pr, f"contest_ties {rule}", st="st")
    reply = await pr.one("odds 3 vs 2")
    assert reply.error is None and reply.result is not None, reply.text
    first, second, tie = binomial.settled(3, 2, 4, sides=6, ties=rule)
    assert reply.result["exact"] == [str(first), str(second)] and reply.result["ties"] == rule
    assert reply.result["exact_tie"] == str(tie)
    if rule == "reroll":
        assert "[domácí" not in reply.text
    else:
        assert reply.text.endswith(f" [domácí pravidla: contest_ties={rule}]"), reply.text
    # A single roll's odds do not depend on how ties are settled: no note.
    single = await pr.one("odds 3")
    assert single.error is None and "[domácí" not in single.text


async def test_the_english_odds_line(pr: Chat) -> None:
    assert (await pr.one("lang en", as_="alice")).error is None
    await house(pr, "contest_ties defender", st="st")
    reply = await pr.one("odds 1 vs 1")
    assert reply.text == (
        "Odds for 1 die against 1 die at 4: the first side wins 25.0%, the second 75.0% (a tie, 50.0%, goes"
        " to the defender). [house: contest_ties=defender]"
    ), reply.text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            "house set contest_ties loser",
            "contest_ties může být jen jedno z: reroll, attacker, defender, standoff, ne „loser“.",
        ),
        (
            "house set contest_ties 1",
            "contest_ties může být jen jedno z: reroll, attacker, defender, standoff, ne „1“.",
        ),
        (
            "house set contest_tie defender",
            "Pravidla nemá domácí pravidlo contest_tie; mysleli jste contest_ties?",
        ),
        ("house reset contest_ties", "contest_ties tu už má výchozí hodnotu: reroll."),
    ],
)
async def test_refusals(pr: Chat, line: str, expected: str) -> None:
    reply = await pr.one(line, as_="st", st=True)
    assert reply.error is not None and reply.text == expected
    assert "contest_ties = reroll (kniha: reroll;" in (await pr.one("house")).text


async def test_house_lists_the_switch_in_czech(pr: Chat) -> None:
    await house(pr, "contest_ties standoff", st="st")
    shown = (await pr.one("house")).text
    assert (
        '* contest_ties = standoff (kniha: reroll; "Měření sil": pokud je výsledek stejný, hází se znovu):'
        " shoda v měření sil: hází se znovu (reroll)"
    ) in shown, shown


async def test_on_every_engine_the_rule_is_stored_and_logged(vault_url: str) -> None:
    """The switch goes through the vault (the ``house_rule`` row, the roll log): on each engine."""
    async with playing(vault_url, "pravidla") as chat:
        await house(chat, "contest_ties standoff")
        result, _ = await rolled(chat, "roll 1 vs 1", [2, 2])
        assert (result["winner"], result["tie"]) == (None, "standoff")
        shown = await chat.one(f"verify {result['id']}", as_="someone")
        # verify names the house rule that settled it, as the roll line did
        assert shown.text.endswith("bez vítěze [domácí pravidla: contest_ties=standoff]"), shown.text
