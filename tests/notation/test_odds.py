"""Exact odds of notation against brute force over every sequence of faces, and the limits (issue 33)."""

from __future__ import annotations

from fractions import Fraction

import pytest

import gateway.features.notation.odds as odds_module
import gateway.features.notation.roll as roll_module
from gateway.features.notation.odds import TooLarge, odds
from gateway.features.notation.parse import NotationError
from gateway.features.notation.text import chart_rows, odds_line
from tests.notation.helpers import enumerate_odds

SHALLOW = [
    "2d4rr2", "2d4!", "2d6!>=5", "2d6!+d4", "2d6!>=5>=5", "2d6!>=6>=4f1", "2d4rr1!", "2d4ro1!>=4",
]  # fmt: skip
PLAIN = [
    "2d6+3", "4d6kh3", "2d20kl1", "4d6dl1", "5d4dh2", "3d6r1", "3d6ro<3", "4d6>=5", "4d6>=5f1", "3dF",
    "d20 adv", "d20-1 dis", "(2d6+3)/2", "d6*d4", "d6-d4", "2d4kh1+d3", "3d6kl2", "4d4r1kh3", "d6/2", "-d6",
    "-d6/4", "2x 2d4",
]  # fmt: skip


@pytest.mark.parametrize("text", PLAIN)
def test_odds_match_every_outcome_counted_one_by_one(text: str) -> None:
    found = odds(text)
    assert dict(found.totals) == enumerate_odds(text)
    assert found.mean == sum(n * p for n, p in found.totals)


@pytest.mark.parametrize("text", SHALLOW)
def test_exploding_and_rerolled_odds_match_to_the_depth_limit(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The same limit in the roller and the odds, small enough to count every outcome.
    monkeypatch.setattr(roll_module, "MAX_DEPTH", 3)
    monkeypatch.setattr(odds_module, "MAX_DEPTH", 3)
    assert dict(odds(text).totals) == enumerate_odds(text)


def test_known_values() -> None:
    assert dict(odds("2d6").totals)[7] == Fraction(1, 6)
    assert dict(odds("4d6kh3").totals)[18] == Fraction(21, 1296)
    assert odds("4d6kh3").mean == Fraction(15869, 1296)
    assert odds("d20 adv").mean == Fraction(553, 40)
    assert dict(odds("4dF").totals)[0] == Fraction(19, 81)


def test_the_issues_large_examples_answer_or_say_too_large() -> None:
    found = odds("20d6kh3")
    assert sum(p for _, p in found.totals) == 1
    assert found.totals[-1] == (18, 1 - Fraction(5, 6) ** 20 - 20 * Fraction(1, 6) * Fraction(5, 6) ** 19
                                - 190 * Fraction(1, 36) * Fraction(5, 6) ** 18)  # fmt: skip
    with pytest.raises(TooLarge):
        odds("10d10!")
    with pytest.raises(TooLarge):
        odds("1000d10000")
    assert sum(p for _, p in odds("3d6!").totals) == 1


@pytest.mark.parametrize(
    ("text", "key"), [("4d6kh3!", "odds_keep_explode"), ("4d6kh3>=4", "odds_keep_success")]
)
def test_what_the_odds_do_not_cover_is_said(text: str, key: str) -> None:
    with pytest.raises(NotationError) as caught:
        odds(text)
    assert caught.value.key == key


def test_the_odds_line_fits_each_platform() -> None:
    small = odds_line("en", odds("2d6+3"), 1, 4000)
    assert small.startswith("Odds of 2d6+3: mean 10; exactly: 5 2.8%, 6 5.6%,")
    assert "at least: 5 100.0%, 6 97.2%" in small
    irc = odds_line("en", odds("2d6+3"), 1, 350)
    assert len(irc.encode()) <= 350 and "exactly: 5 2.8%" in irc
    wide = odds_line("cs", odds("10d10"), 6, 350)
    assert wide == (
        "Šance pro 10d10 (každý z 6 výsledků): součty 10–100, průměr 55; nejčastěji 55 (4,3\u00a0%);"
        " aspoň: 49 76,0\u00a0%, 55 52,2\u00a0%, 61 27,5\u00a0%"
    )
    assert len(odds_line("ru", odds("100d6"), 1, 350).encode()) <= 350


def test_a_chart_has_at_most_forty_bars_and_all_the_chance() -> None:
    found = odds("100d6")
    rows = chart_rows("en", found, at_least=False)
    assert len(rows) <= 42 and sum(p for _, p in rows) == 1
    assert rows[0][0].endswith("or less") and rows[-1][0].endswith("or more")
    assert len(chart_rows("en", found, at_least=True)) <= 42
