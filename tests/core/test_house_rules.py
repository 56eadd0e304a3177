"""House rules through the router: ``house``, ``house set``, ``house reset``, their refusals, the
audit and Storyteller-log rows, and the switches reaching a roll (Dramatic Systems' declare them)."""

from __future__ import annotations

import json

import pytest

from gateway.features.house_rules.declare import (
    HouseRules,
    Switch,
    WrongValue,
    build,
    parse_value,
    switch,
    switches,
)
from gateway.features.house_rules.notes import changed_result
from gateway.testing import Chat
from gateway.vault.models import Audit, HouseRule, StlogEntry
from tests.helpers.chat import count, playing, rows


@pytest.fixture
async def dra(vault_url: str):  # type: ignore[no-untyped-def]
    async with playing(vault_url, "dramatic") as chat:
        yield chat


async def test_house_lists_every_switch_with_the_books_value(dra: Chat) -> None:
    reply = await dra.one("house")
    assert reply.error is None
    lines = reply.text.splitlines()
    assert lines[0] == "House rules of Dramatic Systems in this channel: all as the book has them."
    assert lines[1].startswith("tens_explode = specialty (book: specialty; Dramatic Systems, dice summary")
    assert any(line.startswith("ones_cancel = on (book: on;") for line in lines)
    assert reply.result is not None and reply.result["changed"] == []


async def test_a_storyteller_sets_and_resets_a_switch_audited_and_announced(dra: Chat) -> None:
    reply = await dra.one("house set tens_double always", as_="gm", st=True)
    assert reply.error is None, reply.text
    assert not reply.private  # announced in the channel
    assert reply.text == "House rule here: tens_double = always (was never; the book's: never), set by Gm."
    stored = await rows(dra, HouseRule)
    assert [(r.channel_key, r.system, r.name, r.value) for r in stored] == [
        ("console:main", "dramatic", "tens_double", '"always"')
    ]
    audit = [a for a in await rows(dra, Audit) if a.action.startswith("house_rule")]
    assert [(a.action, a.field_name, a.old_value, a.new_value) for a in audit] == [
        ("house_rule.set", "console:main/dramatic/tens_double", json.dumps("never"), json.dumps("always"))
    ]
    logged = [e for e in await rows(dra, StlogEntry) if e.kind == "house_rule"]
    assert [e.text for e in logged] == [reply.text]
    shown = await dra.one("house")
    assert shown.text.splitlines()[0] == (
        "House rules of Dramatic Systems in this channel (1 changed from the book):"
    )
    assert "* tens_double = always (book: never;" in shown.text
    # The switch reaches the dice: 10 counts two.
    dra.dice.extend([10, 7, 3])
    rolled = await dra.one("roll 3")
    assert rolled.result is not None and rolled.result["successes"] == 3
    assert rolled.text.endswith(f"→ 3 successes (Success) [house: tens_double=always] #{rolled.result['id']}")
    reset = await dra.one("house reset tens-double", as_="gm", st=True)
    assert reset.error is None and reset.text == (
        "House rule tens_double is back to its default here, never, reset by Gm."
    )
    assert await count(dra, HouseRule) == 0
    dra.dice.extend([10, 7, 3])
    rolled = await dra.one("roll 3")
    assert rolled.result is not None and rolled.result["successes"] == 2 and "[house" not in rolled.text


async def test_a_rule_that_did_not_change_the_result_is_not_named(dra: Chat) -> None:
    assert (await dra.one("house set tens_double always", as_="gm", st=True)).error is None
    dra.dice.extend([9, 7, 3])  # no 10: doubling changed nothing
    rolled = await dra.one("roll 3")
    assert rolled.result is not None and "[house" not in rolled.text and "house_rules" not in rolled.result


async def test_switches_are_per_channel(dra: Chat) -> None:
    assert (await dra.one("house set ones_cancel off", as_="gm", st=True)).error is None
    assert (await dra.one("system dramatic", as_="gm", st=True, channel="other")).error is None
    dra.dice.extend([1, 7])
    here = await dra.one("roll 2")
    dra.dice.extend([1, 7])
    there = await dra.one("roll 2", channel="other")
    assert here.result is not None and there.result is not None
    assert (here.result["successes"], there.result["successes"]) == (1, 0)
    assert "[house: ones_cancel=off]" in here.text


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("house set tens_double 3", "tens_double is one of never, always, specialty, not 3."),
        ("house set botch maybe", "botch is on or off, not maybe."),
        ("house set default_difficulty 11", "default_difficulty is a whole number from 2 to 10, not 11."),
        ("house set default_difficulty six", "default_difficulty is a whole number from 2 to 10, not six."),
        (
            "house set tens_dubble always",
            "Dramatic Systems has no house rule tens_dubble; did you mean tens_double?",
        ),
        ("house set zzzz on", "Dramatic Systems has no house rule zzzz; house lists them."),
        ("house reset botch", "botch is at its default here already: on."),
        (
            "house set botch",
            "house set: value is missing: its value here: on or off, a number or one of its choices."
            " Usage: house set NAME VALUE",
        ),
    ],
)
async def test_refusals_write_nothing(dra: Chat, line: str, expected: str) -> None:
    before = await count(dra, Audit)
    reply = await dra.one(line, as_="gm", st=True)
    assert reply.error is not None and reply.text == expected
    assert await count(dra, HouseRule) == 0 and await count(dra, Audit) == before


async def test_a_player_cannot_set_or_reset(dra: Chat) -> None:
    for line in ("house set no_botch on", "house set botch off", "house reset botch"):
        reply = await dra.one(line, as_="alice")
        assert reply.error is not None
        assert "Storyteller" in reply.text
    assert await count(dra, HouseRule) == 0


async def test_a_setting_it_already_has_is_said(dra: Chat) -> None:
    assert (await dra.one("house set botch off", as_="gm", st=True)).error is None
    reply = await dra.one("house set botch no", as_="gm", st=True)
    assert reply.error is not None and reply.text == "botch is off here already."


async def test_czech_and_russian(dra: Chat) -> None:
    assert (await dra.one("lang cs", as_="gm")).error is None
    reply = await dra.one("house set botch ne", as_="gm", st=True)
    assert reply.text == (
        "Domácí pravidlo zde: botch = vypnuto (dříve zapnuto; podle knihy zapnuto), nastavil(a) Gm."
    )
    assert (await dra.one("lang ru", as_="alice")).error is None
    shown = await dra.one("house", as_="alice")
    assert shown.text.splitlines()[0] == (
        "Домашние правила системы Dramatic Systems в этом канале (изменено по сравнению с книгой: 1):"
    )
    assert "* botch = выкл. (по книге: вкл.;" in shown.text
    wrong = await dra.one("house set botch может", as_="gm", st=True)
    assert wrong.text == "botch může být jen zapnuto nebo vypnuto (on/off), ne „может“."


@pytest.mark.parametrize("system", ["nightcap", "decanter", "dramatic", "pravidla", "nightwanderers"])
async def test_every_system_declares_switches(vault_url: str, system: str) -> None:
    async with playing(vault_url, system) as chat:
        assert (await chat.one("lang en", as_="alice")).error is None
        reply = await chat.one("house", as_="alice")
        assert reply.error is None and reply.text.startswith("House rules of "), reply.text
        assert reply.result is not None and reply.result["system"] == system


# --- the declaration, pure -------------------------------------------------------------------------


class Demo(HouseRules):
    flag: bool = switch(True, en="a flag", cs="příznak", ru="флаг", book="p. 1")
    level: int = switch(2, en="a level", cs="úroveň", ru="уровень", book="p. 2", ge=0, le=3)


def test_parse_values() -> None:
    spec = switches(Demo)
    words = ("on", "OFF", "ano", "нет", "vypnuto", "вкл.")
    assert [parse_value(spec["flag"], w) for w in words] == [True, False, True, False, False, True]
    assert parse_value(spec["level"], "3") == 3
    for word in ("4", "-1", "x", "1.5", "٣"):
        with pytest.raises(WrongValue):
            parse_value(spec["level"], word)
    assert isinstance(spec["flag"], Switch) and spec["flag"].meaning_in("ru") == "флаг"


def test_a_stored_value_the_model_no_longer_takes_is_left_out() -> None:
    built = build(Demo, None, {"flag": False, "level": 9, "gone": 1})
    assert (built.flag, built.level) == (False, 2)


def test_changed_result_names_only_the_switches_that_mattered() -> None:
    house = Demo(flag=False, level=3)
    assert changed_result(house, lambda r: r.level) == ["level"]
    assert changed_result(house, lambda r: (r.flag, r.level)) == ["flag", "level"]
    assert changed_result(Demo(), lambda r: r.level) == []


@pytest.mark.parametrize(
    ("lang", "note"),
    [
        ("en", " [house: tens_double=off]"),
        ("cs", " [domácí pravidla: tens_double=vypnuto]"),
        ("ru", " [домашние правила: tens_double=выкл.]"),
    ],
)
async def test_verify_names_the_house_rule_that_changed_the_roll(chat: Chat, lang: str, note: str) -> None:
    """``verify ID`` (and the web's ``/r/ID``, which tells a roll with the same functions) shows
    the ``[house: ...]`` note the roll line carried, in the reader's language."""
    from gateway.features import verify

    assert (await chat.one("house set tens_double off", as_="st", st=True)).error is None
    chat.dice.extend([10, 7, 3])
    rolled = await chat.one("roll 3", as_="mira")
    assert rolled.result is not None and "[house: tens_double=off]" in rolled.text
    assert (await chat.one(f"lang {lang}", as_="olga")).error is None
    told = await chat.one(f"verify {rolled.result['id']}", as_="olga")
    assert told.error is None and note in told.text, told.text
    async with chat.services.vault.transaction() as session:
        row = await verify.find_roll(session, rolled.result["id"])
    assert row is not None and note in verify.roll_detail(chat.services, row, lang)
