"""Typed command parameters (``gateway.core.params``) against every command the core and Nightcap declare:
``render`` and ``bind`` are inverses, each usage line names its command, a line that does not fit is
one clear line in the reader's language (never an internal error), and ``help COMMAND`` lists the
parameters, paged on IRC."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.core.core_params import PARAMS
from gateway.core.param_text import explain, param_lines
from gateway.core.params import NAME_KINDS, Param, ParamError, bind, render, usage
from gateway.core.parser import tokenize
from gateway.core.spec import Command
from gateway.testing import Chat
from plugins.nightcap import COMMANDS as NIGHTCAP

DECLARED: list[Command] = [c for c in NIGHTCAP.commands() if c.params]
DECLARED_NAMES = sorted({c.name for c in DECLARED} | {name for name, params in PARAMS.items() if params})
ALL_PARAMS: dict[str, tuple[Param, ...]] = {**PARAMS, **{f"nightcap {c.name}": c.params for c in DECLARED}}

WORD = st.text(st.sampled_from("abcdefghijkmnopqrstuvwxyzABCMV"), min_size=1, max_size=8)


def _value(param: Param, keywords: set[str]) -> st.SearchStrategy[Any]:
    plain = WORD.filter(lambda w: w.casefold() not in keywords)
    if param.kind == "flag":
        return st.booleans()
    if param.kind == "choice":
        return st.sampled_from(param.choices)
    if param.kind in ("integer", "modifier"):
        low = param.minimum if param.minimum is not None else -50
        high = param.maximum if param.maximum is not None else 50
        numbers = st.integers(low, high)
        return numbers.filter(lambda n: n != 0) if param.kind == "modifier" else numbers
    if param.rest or param.kind in NAME_KINDS:  # several words: a name's quoted, the rest's not
        return st.lists(plain, min_size=1, max_size=3).map(" ".join)
    return plain


@st.composite
def filled(draw: st.DrawFn, params: Sequence[Param]) -> dict[str, Any]:
    """Values for ``params`` as a person could give them: every required one, a leading run of the
    optional positional ones (a later one cannot be given without the earlier), any keyword ones."""
    keywords = {str(p.keyword).casefold() for p in params if p.keyword}
    positional = [p for p in params if not p.keyword]
    needed = max((i + 1 for i, p in enumerate(positional) if p.required), default=0)
    count = draw(st.integers(needed, len(positional)))
    values: dict[str, Any] = {}
    for param in positional[:count]:
        values[param.name] = draw(_value(param, keywords))
    for param in params:
        if param.keyword and (param.required or draw(st.booleans())):
            values[param.name] = draw(_value(param, keywords))
    return values


@pytest.mark.parametrize("key", sorted(ALL_PARAMS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_render_and_bind_are_inverses(key: str, data: st.DataObject) -> None:
    params = ALL_PARAMS[key]
    values = data.draw(filled(params))
    words = tokenize(" ".join(render(params, values)))  # as typed, quotes and all
    expected = {k: v for k, v in values.items() if v is not False}
    bound = {k: v for k, v in bind(params, words).items() if v is not False}
    assert bound == expected, (words, bind(params, words))


@pytest.mark.parametrize("command", DECLARED, ids=lambda c: c.name)
def test_every_nightcap_usage_line_names_its_command(command: Command) -> None:
    """The usage line drawn from the declaration (what the docs show) begins with the command's words."""
    line = usage(command.name, command.params)
    assert line.split()[: len(command.name.split())] == command.name.split()
    assert all(p.description and p.name == p.name.lower() for p in command.params)


async def test_every_declared_usage_line_finds_its_command(chat: Chat) -> None:
    registry = chat.services.plugins.registry
    checked = 0
    for (system, name), command in registry.commands.items():
        if not command.params or system not in (None, "nightcap"):
            continue
        if command.claims is not None:
            continue  # notation's roll and odds take only lines of notation (``roll 2d6``)
        words = tokenize(usage(name, command.params))
        found = registry.find(system or "nightcap", words)
        assert found is not None and found[0] is command, (name, words)
        checked += 1
    assert checked >= len(DECLARED_NAMES) - 2  # ``web`` and ``r`` are not declared here


def test_a_name_takes_the_words_the_parameters_after_it_leave() -> None:
    soak = next(c for c in DECLARED if c.name == "st soak").params
    assert bind(soak, ["Mira", "Vance", "2"]) == {"name": "Mira Vance", "soak": 2}
    join = next(c for c in DECLARED if c.name == "init join").params
    assert bind(join, ["Mira", "Vance"]) == {"name": "Mira Vance"}
    assert bind(join, ["Mira", "Vance", "3"]) == {"name": "Mira Vance", "physical": 3}
    with pytest.raises(ParamError) as missing:
        bind(soak, ["Mira", "Vance"])
    assert (missing.value.problem, missing.value.param) == ("missing", soak[1])  # not "Vance is no number"


def test_a_keyword_value_stops_at_another_keyword() -> None:
    roll = next(c for c in DECLARED if c.name == "roll").params
    assert bind(roll, tokenize("3 +1 wp vs 4 secret")) == {"pool": "3 +1 wp", "against": "4", "secret": True}


def test_a_choice_takes_a_unique_beginning() -> None:
    char_set = next(c for c in DECLARED if c.name == "char set").params
    assert bind(char_set, ["apt", "locks"]) == {"field": "aptitude", "text": "locks"}
    with pytest.raises(ParamError):
        bind(char_set, ["a", "locks"])  # aptitude or advantage


def test_a_choice_is_also_taken_by_its_name_in_any_language_even_of_several_words() -> None:
    labels = {"ru": {"lesang": "Лесанг", "bellemort": "Бель Морт"}, "en": {"lesang": "Le sang royal"}}
    clan = Param(
        "clan", "choice", "a clan", keyword="clan", choices=("lesang", "bellemort"), choice_texts=labels
    )
    params = (Param("name", "text", "a name", required=True), clan)
    assert bind(params, tokenize("Mira clan Лесанг")) == {"name": "Mira", "clan": "lesang"}
    assert bind(params, tokenize("Mira clan Бель Морт")) == {"name": "Mira", "clan": "bellemort"}
    assert bind(params, tokenize("Mira clan le sang royal")) == {"name": "Mira", "clan": "lesang"}
    assert bind(params, tokenize("Mira clan бель")) == {"name": "Mira", "clan": "bellemort"}
    # Positional too: the label's words are the choice's, not left over.
    positional = (Param("clan", "choice", "a clan", choices=("lesang", "bellemort"), choice_texts=labels),)
    assert bind(positional, tokenize("Бель Морт")) == {"clan": "bellemort"}
    with pytest.raises(ParamError) as refused:
        bind(params, tokenize("Mira clan Бруха"))
    assert refused.value.problem == "not_choice"
    assert (
        clan.choice_label("lesang", "ru") == "Лесанг" and clan.choice_label("bellemort", "en") == "bellemort"
    )


@pytest.mark.parametrize(
    ("locale", "words", "expected"),
    [
        (
            "en",
            [],
            "verify: id is missing: the roll's id, shown at the end of its line: k3f9m2x. Usage: verify ID",
        ),
        (
            "cs",
            [],
            "verify: chybí parametr „ID“ – ID hodu, uvedené na konci jeho řádku: k3f9m2x. Použití: verify ID",
        ),
        (
            "ru",
            ["a", "b"],
            "verify: лишнее «b», столько эта команда не принимает. Как писать: verify ID",
        ),
    ],
)
def test_a_param_error_is_one_line_in_the_readers_language(
    locale: str, words: list[str], expected: str
) -> None:
    command = Command("verify", lambda ctx, inv: None, "", "verify ID", params=PARAMS["verify"])  # type: ignore[arg-type, return-value]
    with pytest.raises(ParamError) as error:
        bind(command.params, words)
    assert explain(locale, command, error.value) == expected


def test_help_lines_name_range_choices_and_whether_optional() -> None:
    command = Command("st log", lambda ctx, inv: None, "", params=PARAMS["st log"])  # type: ignore[arg-type, return-value]
    assert (
        param_lines("cs", command)[2]
        == "počet: kolik záznamů vypsat (lze vynechat, za slovem --limit, 1 až 200)"
    )
    assert param_lines("ru", command)[0] == "персонаж: только записи об этом персонаже (можно не указывать)"


LINE_WORDS = st.sampled_from(
    [
        "Mira", "Vance", "Dorian", "physical", "phys", "mental", "wp", "vs", "secret", "as", "force", "here",
        "--limit", "--since", "--sheet", "--system", "--chronicle", "channel", "off", "max", "adept", "1",
        "0", "-1", "+2", "999999999999", "x", "'", '"', "=", ";", "#", "origin", "apt", "cs", "ru", "ž",
        "кубики",
    ]
)  # fmt: skip
LINES = st.tuples(st.sampled_from(DECLARED_NAMES), st.lists(LINE_WORDS, max_size=7)).map(
    lambda t: " ".join([t[0], *t[1]])
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=LINES, locale=st.sampled_from(["en", "cs", "ru"]))
async def test_random_words_against_every_declared_command_never_fail_inside(
    chat: Chat, line: str, locale: str
) -> None:
    if not chat.services.state.get("params_cast"):
        await chat.say("char new Mira Vance", as_="mira")
        chat.services.state["params_cast"] = True
    chat.dice.extend([7, 3, 10, 1, 8] * 20)
    await chat.say(f"lang {locale}", as_="mira")
    for st_role in (False, True):
        for reply in await chat.say(line, as_="mira", st=st_role):
            assert reply.error != "internal", (line, reply)
            assert reply.text and ("\n" not in reply.text or reply.error is None), (line, reply)


async def test_help_command_lists_the_parameters(chat: Chat) -> None:
    reply = (await chat.say("help char set", as_="mira"))[0]
    lines = reply.text.split("\n")
    assert lines[0].startswith(
        "char set: set a narrative field while in creation. Usage: char set FIELD TEXT"
    )
    assert lines[1] == (
        "field: the narrative field to write"
        " (required, name, origin, subgroup, aptitude, advantage or weakness)"
    )
    assert lines[2] == "text: what it says, up to 300 characters (required)"
    assert reply.result == {
        "kind": "help",
        "system": "nightcap",
        "page": 1,
        "pages": 1,
        "command": "char set",
        "params": ["field", "text"],
    }


async def test_help_command_is_paged_where_lines_are_short(chat: Chat) -> None:
    """IRC (``page_bytes``): the usage and the parameters in pages of one line, each within the budget."""
    first = await chat.one("help char set", as_="mira", page_bytes=250)
    assert first.result is not None
    count = first.result["pages"]
    assert count > 1 and first.text.endswith("next: help char set 2")
    shown = [first.text]
    for page in range(2, count + 1):
        shown.append((await chat.one(f"help char set {page}", as_="mira", page_bytes=250)).text)
    assert all("\n" not in text and len(text.encode()) <= 250 for text in shown), shown
    assert shown[-1].endswith(f"text: what it says, up to 300 characters (required) Page {count} of {count}.")
    assert "field: the narrative field to write" in " ".join(shown)
    assert (await chat.one(f"help char set {count + 1}", as_="mira", page_bytes=250)).error is not None


@pytest.mark.parametrize("value", ["'Bob", '"quoted', "it's", "two words", ""])
def test_a_rendered_word_reads_back_as_itself(value: str) -> None:
    """A one-word value that starts with a quote is quoted, or the tokeniser reads an open quote."""
    param = Param("name", "word", "a word")
    assert bind((param,), tokenize(" ".join(render((param,), {"name": value})))) == (
        {"name": value} if value else {}
    )
