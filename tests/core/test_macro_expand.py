"""The pure expander (``gateway.features.macros.expand``): exact expansions, and, for any bodies and values,
either commands within the bounds or one ``MacroError`` (never another exception)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.features.macros.expand import (
    MAX_COMMANDS,
    MAX_EXPANDED,
    MacroError,
    check_name,
    expand,
    parse_body,
    split_commands,
)
from tests.fuzz.profile import ci_settings


def is_command(word: str) -> bool:
    return word in {"roll", "st", "help"}


def lines(name: str, values: list[str], bodies: dict[str, str]) -> list[str]:
    return [e.text for e in expand(name, values, bodies, is_command)]


def test_split_keeps_a_quoted_separator() -> None:
    assert split_commands('roll 1 ; announce "a; b" ;roll 2') == ["roll 1", 'announce "a; b"', "roll 2"]
    assert split_commands("roll Mira's; roll 2") == ["roll Mira's", "roll 2"]


def test_values_are_quoted_when_they_hold_spaces() -> None:
    bodies = {"say": "announce {1} {who=the room}"}
    assert lines("say", ["Big news"], bodies) == ['announce "Big news" "the room"']
    assert lines("say", ['he said "hi"', "x"], bodies) == ["announce 'he said \"hi\"' x"]
    with pytest.raises(MacroError) as caught:
        lines("say", ['"it\'s" here'], bodies)
    assert caught.value.key == "value.quotes"


def test_braces_and_names() -> None:
    assert lines("b", [], {"b": "announce {{x}}"}) == ["announce {x}"]
    assert lines("n", ["pool=4", "diff=8"], {"n": "roll {pool} diff {diff=6}"}) == ["roll 4 diff 8"]
    with pytest.raises(MacroError) as caught:  # a second pool= is a value too many
        lines("n", ["pool=4", "pool=5"], {"n": "roll {pool}"})
    assert caught.value.key == "value.extra"
    assert check_name("Hit") == "hit" and check_name("hit2-x_y") == "hit2-x_y"
    assert check_name("-x") is None and check_name("list") is None


def test_an_unclosed_quote_in_a_body_is_its_mistake() -> None:
    # The router's tokenizer refuses such a typed line first; a body stored otherwise is still checked.
    with pytest.raises(MacroError) as caught:
        parse_body("q", 'roll "1 ; roll 2')
    assert (caught.value.macro, caught.value.key) == ("q", "words")


def test_a_command_word_is_never_a_nested_macro() -> None:
    bodies = {"roll": "roll 9", "a": "roll 2"}
    assert lines("a", [], bodies) == ["roll 2"]  # not the macro roll
    assert lines("b", [], {**bodies, "b": "macro roll"}) == ["roll 9"]  # asked for by name


words = st.text(alphabet="ab{}=; 12#\"'x", max_size=12)
bodies = st.dictionaries(
    st.sampled_from(["a", "b", "c"]), st.text(alphabet="abc{}=;12 #\"'roll", max_size=60), max_size=3
)


@ci_settings(300)
@given(bodies=bodies, name=st.sampled_from(["a", "b", "c"]), values=st.lists(words, max_size=4))
def test_the_expander_raises_only_its_own_error_and_stays_bounded(
    bodies: dict[str, str], name: str, values: list[str]
) -> None:
    try:
        out = expand(name, values, bodies, is_command)
    except MacroError as error:
        assert error.key and (error.macro == name or error.macro in bodies)
        return
    assert len(out) <= MAX_COMMANDS
    assert sum(len(e.text) for e in out) <= MAX_EXPANDED
    assert all(e.words and e.chain[0] == name for e in out)
