"""Reading dice notation: every spelling the issue names, its limits and its refusals (issue 33)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.core.dice import SeededDice
from gateway.features.notation import messages
from gateway.features.notation.odds import odds
from gateway.features.notation.parse import (
    Condition,
    Dice,
    Keep,
    Negative,
    NotationError,
    Number,
    Operation,
    Reroll,
    looks_like_notation,
    parse,
)
from gateway.features.notation.roll import roll
from tests.fuzz.profile import ci_settings

CI = ci_settings(300)  # GATEWAY_FUZZ_EXAMPLES=N raises it for a long run


@pytest.mark.parametrize(
    ("text", "term"),
    [
        ("2d6", Dice(2, 6, "2d6")),
        ("d20", Dice(1, 20, "d20")),
        ("d%", Dice(1, 100, "d%")),
        ("4dF", Dice(4, 3, "4dF", fate=True)),
        ("4D6KH3", Dice(4, 6, "4d6kh3", keep=Keep(True, 3))),
        ("4d6k3", Dice(4, 6, "4d6k3", keep=Keep(True, 3))),
        ("2d20kl1", Dice(2, 20, "2d20kl1", keep=Keep(False, 1))),
        ("4d6dl1", Dice(4, 6, "4d6dl1", keep=Keep(True, 3))),
        ("5d10dh2", Dice(5, 10, "5d10dh2", keep=Keep(False, 3))),
        ("3d6!", Dice(3, 6, "3d6!", explode=Condition("=", 6))),
        ("5d10!>=9", Dice(5, 10, "5d10!>=9", explode=Condition(">=", 9))),
        ("4d6r1", Dice(4, 6, "4d6r1", reroll=Reroll(Condition("<=", 1), once=True))),
        ("4d6ro1", Dice(4, 6, "4d6ro1", reroll=Reroll(Condition("<=", 1), once=True))),
        ("4d6rr2", Dice(4, 6, "4d6rr2", reroll=Reroll(Condition("<=", 2), once=False))),
        ("4d6r=3", Dice(4, 6, "4d6r=3", reroll=Reroll(Condition("=", 3), once=True))),
        ("6d10>=7", Dice(6, 10, "6d10>=7", success=Condition(">=", 7))),
        ("6d10>=7f1", Dice(6, 10, "6d10>=7f1", success=Condition(">=", 7), failure=Condition("<=", 1))),
    ],
)
def test_each_dice_term_reads_as_written(text: str, term: Dice) -> None:
    assert parse(text).body == term


def test_arithmetic_keeps_precedence_and_parentheses() -> None:
    two_d6 = Dice(2, 6, "2d6")
    assert parse("(2d6+3)/2").body == Operation("/", Operation("+", two_d6, Number(3)), Number(2))
    body = parse("1d8+2d6*2-4").body
    assert body == Operation(
        "-", Operation("+", Dice(1, 8, "1d8"), Operation("*", two_d6, Number(2))), Number(4)
    )
    assert parse("-d6").body == Negative(Dice(1, 6, "d6"))
    assert parse("2d6 + 3").body == parse("2d6+3").body


def test_advantage_repeats_and_terms() -> None:
    assert parse("d20 adv").body == Dice(2, 20, "2d20kh1", keep=Keep(True, 1))
    assert parse("d20+5 dis").body == Operation("+", Dice(2, 20, "2d20kl1", keep=Keep(False, 1)), Number(5))
    stats = parse("6x 4d6kh3")
    assert (stats.repeat, stats.body) == (6, Dice(4, 6, "4d6kh3", keep=Keep(True, 3)))
    assert parse("6x4d6kh3").repeat == 6
    assert [t.text for t in parse("1d8+2d6+4").terms] == ["1d8", "2d6"]


@pytest.mark.parametrize(
    ("words", "notation"),
    [
        (["2d6+3"], True),
        (["d20"], True),
        (["d%"], True),
        (["4dF"], True),
        (["6x", "4d6kh3"], True),
        (["(2d6+3)/2"], True),
        (["3d"], True),
        (["3"], False),
        (["physical", "+1"], False),
        (["wits"], False),
        (["dex"], False),
        (["dexterity"], False),
        (["Obratnost"], False),
        (["ловкость"], False),
        ([], False),
    ],
)
def test_only_notation_is_claimed(words: list[str], notation: bool) -> None:
    assert looks_like_notation(words) is notation


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("0d6", "no_dice"),
        ("d0", "no_sides"),
        ("4d6kh5", "keep_more"),
        ("4d6kh0", "keep_more"),
        ("4d6dl4", "drop_all"),
        ("1001d6", "too_many_dice"),
        ("600d6+600d6", "too_many_dice"),
        ("11x 100d6", "too_many_dice"),
        ("d10001", "too_many_sides"),
        ("2d6" + "+1" * 100, "too_long"),
        ("1d1!", "every_face.explode"),
        ("d6!>=1", "every_face.explode"),
        ("4d6rr6", "every_face.reroll"),
        ("3d6!>=7", "no_face"),
        ("6d10>=11", "no_face"),
        ("6d10f1", "failure_alone"),
        ("4d6kh3kl1", "twice"),
        ("4dF!", "fate_modifier"),
        ("2d6 adv", "vantage"),
        ("0x d6", "repeat"),
        ("hello", "unexpected"),
        ("2d6+", "incomplete"),
        ("(2d6", "incomplete"),
        ("2d6)", "unexpected"),
        ("", "empty"),
    ],
)
def test_mistakes_have_their_own_message(text: str, key: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse(text)
    assert caught.value.key == key
    for locale in ("en", "cs", "ru"):
        line = messages.t(locale, caught.value.key, **caught.value.params)
        assert line and "{" not in line and "\n" not in line


def test_every_message_exists_in_each_language() -> None:
    english = messages.CATALOGUE.messages["en"]
    for locale in ("cs", "ru"):
        assert set(messages.CATALOGUE.messages[locale]) == set(english)


def test_division_by_zero_is_refused_when_rolled() -> None:
    with pytest.raises(NotationError) as caught:
        roll(parse("d6/0"), SeededDice(1))
    assert caught.value.key == "divide_by_zero"
    with pytest.raises(NotationError) as caught:
        odds("d6/(d2-1)")
    assert caught.value.key == "odds_divide_by_zero"


# Hypothesis: whatever is typed, a NotationError or a result, never anything else.
ALPHABET = "0123456789d%fFkhlrox!<>=+-*/() adv"
_pieces = st.sampled_from(
    ["d", "2d6", "d20", "4d6", "kh", "kl", "dh", "dl", "!", "r", "rr", "ro", ">=", "<", "f", "x", "1", "3",
     "10", "(", ")", "+", "-", "*", "/", " ", "adv", "dis", "dF", "d%", "0", "999999999999"]
)  # fmt: skip


def _never_internal(text: str) -> None:
    try:
        expression = parse(text)
    except NotationError as error:
        assert messages.t("en", error.key, **error.params)
        return
    try:
        outcomes = roll(expression, SeededDice(len(text)))
    except NotationError as error:
        assert error.key == "divide_by_zero"
        return
    assert len(outcomes) == expression.repeat
    for outcome in outcomes:
        for term_roll in outcome.rolls:
            assert sum(1 for r in term_roll.rerolled if not r) >= term_roll.term.count
    if sum(t.count for t in expression.terms) > 6 or any(t.sides > 12 for t in expression.terms):
        return
    try:
        found = dict(odds(text).totals)
    except NotationError as error:
        assert messages.t("en", error.key, **error.params)
        return
    assert sum(found.values()) == 1
    assert all(o.total in found for o in outcomes), "a rolled total the odds call impossible"


@CI
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_any_text_reads_or_is_refused(text: str) -> None:
    _never_internal(text)


@CI
@given(st.lists(_pieces, max_size=12).map("".join))
def test_any_sequence_of_notation_pieces_reads_or_is_refused(text: str) -> None:
    _never_internal(text)
