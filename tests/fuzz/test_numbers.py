"""The one number parser (gateway/rules/numbers.py): any string in, an int that fits 64 bits or a
one-line UserError out, never another exception."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.core.errors import UserError
from gateway.rules.numbers import clamped, is_digits, is_signed, read_int, whole_number
from tests.fuzz.words import NUMBERS

WORDS = st.sampled_from(NUMBERS) | st.text(max_size=25) | st.integers().map(str)
CI = settings(max_examples=400, derandomize=True, database=None, deadline=None)


@CI
@given(word=WORDS)
def test_a_number_is_ascii_and_fits_64_bits(word: str) -> None:
    value = read_int(word, signed=True)
    if value is not None:
        assert word.isascii() and -(2**63) < value < 2**63
    assert is_digits(word) <= is_signed(word)  # a count is a signed number too


@CI
@given(word=WORDS, limit=st.integers(0, 10**6))
def test_whole_number_refuses_in_one_line(word: str, limit: int) -> None:
    try:
        value = whole_number(word, "Soak", limit)
    except UserError as exc:
        assert "\n" not in exc.message and len(exc.message) < 160
    else:
        assert -limit <= value <= limit


@pytest.mark.parametrize("word", ["²", "①", "१२", "٣", "３", "++1", "--1", "+-1", "1_000", " 3", "3.0", ""])
def test_what_isdigit_and_int_accepted_is_refused(word: str) -> None:
    assert read_int(word, signed=True) is None
    with pytest.raises(UserError):
        whole_number(word, "Soak")


def test_signs_and_bounds() -> None:
    assert read_int("-3", signed=True) == -3 and read_int("+3", signed=True) == 3
    assert read_int("-3") is None
    with pytest.raises(UserError, match="stops at 20"):
        whole_number("99999999999999999999", "Soak", 20)
    with pytest.raises(UserError, match="starts at 1"):
        whole_number("0", "Soak", 20, low=1)
    assert clamped("9" * 5000) == 10**18 and clamped("-" + "9" * 30) == -(10**18)
