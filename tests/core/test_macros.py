"""Macros through the router (issue 18): saved, listed, shown, removed; run as ``NAME`` or ``macro
NAME`` in every rule system with scripted dice; personal ones following the person across linked
platforms, a channel's shadowed by one's own; refused as typed text would be, and bounded."""

from __future__ import annotations

import itertools

import pytest
from sqlmodel import col, select

from gateway.features.macros.expand import MAX_COMMANDS, MAX_DEPTH
from gateway.testing import Chat
from gateway.vault.models import Audit, Macro
from tests.helpers.chat import play, room, rows

# Each system's roll, with faces for it and what its reply says of them.
ROLLS = {
    "nightcap": ("roll {1}", "3", [9, 5, 10], "9 5 10"),
    "decanter": ("roll {1} dc 4", "3", [9, 5, 10], "9 5 10"),
    "dramatic": ("roll {1} diff 6", "3", [9, 5, 10], "9 5 10"),
    "nightwanderers": ("roll {1}", "3", [6, 6, 6], "6 6 6"),
    "pravidla": ("roll {1} tn 4", "2", [1, 5], "5"),
}


async def ok(chat: Chat, line: str, as_: str = "mira", **kw: object) -> str:
    replies = await chat.say(line, as_=as_, **kw)  # type: ignore[arg-type]
    assert replies and all(r.error is None for r in replies), [r.text for r in replies]
    return "\n".join(r.text for r in replies)


async def refused(chat: Chat, line: str, as_: str = "mira", **kw: object) -> str:
    reply = await chat.one(line, as_=as_, **kw)  # type: ignore[arg-type]
    assert reply.error is not None, reply.text
    return reply.text


@pytest.mark.parametrize("system", sorted(ROLLS))
async def test_a_macro_rolls_in_every_system(chat: Chat, system: str) -> None:
    body, value, faces, shown = ROLLS[system]
    await play(chat, system, as_="st")
    await ok(chat, f"macro add r = {body}")
    chat.dice.extend(faces)
    reply = await chat.one(f"r {value}", as_="mira")
    assert reply.error is None and shown in reply.text, reply.text
    assert (reply.result or {}).get("id")
    chat.dice.extend(faces)
    assert shown in await ok(chat, f"macro r {value}")  # the long form runs it too
    other = "dramatic" if system == "nightcap" else "nightcap"
    await play(chat, other, as_="st")
    text = await refused(chat, f"r {value}")
    assert text.startswith("Macro r is for ") and "this channel plays" in text, text


async def test_values_named_defaults_and_several_commands(chat: Chat) -> None:
    await ok(chat, "macro add two = roll {pool} ; roll {1} # {why=nothing}")
    chat.dice.extend([9, 5, 1, 2, 3])
    replies = await chat.say("two 3 pool=2", as_="mira")
    assert [r.text.split(":")[1].split("→")[0].strip() for r in replies] == ["9 5", "1 2 3"]
    # Values left after the numbered ones fill the named ones, in order.
    chat.dice.extend([9, 5, 1, 2, 3])
    replies = await chat.say("two 3 2", as_="mira")
    assert [len(r.result["dice"]) for r in replies if r.result] == [2, 3]
    assert await refused(chat, "two 3") == "Macro two needs a value for {pool}."
    assert await refused(chat, "two 3 2 why=x 9") == "Macro two takes 3 values; '9' is one too many."
    # A macro with no parameter is an alias: what follows goes at the end.
    await ok(chat, "macro add r = roll")
    chat.dice.extend([9, 9])
    assert "9 9" in await ok(chat, "r 2")


async def test_list_show_remove_and_the_audit(chat: Chat) -> None:
    assert "No macros for Nightcap here" in await ok(chat, "macro list")
    await ok(chat, "macro add a = roll 1")
    text = await ok(chat, "macro add a = roll 2")
    assert text.endswith("It was: roll 1."), text
    listed = await chat.one("macro list", as_="mira")
    assert listed.text == "Macros for Nightcap (1): a. macro show NAME shows one."
    assert listed.result == {
        "kind": "macro.list",
        "system": "nightcap",
        "macros": [{"name": "a", "chronicle": False, "shadows": False}],
    }
    assert await ok(chat, "macro show A") == "Your macro a (Nightcap): roll 2"
    assert await ok(chat, "macro remove a") == "Your macro a is removed."
    assert (
        await refused(chat, "macro show a")
        == "No macro 'a' for Nightcap here. macro list shows those you have."
    )
    audits = [
        (a.action, a.old_value, a.new_value) for a in await rows(chat, Audit) if a.action.startswith("macro")
    ]
    assert audits == [
        ("macro add", None, "roll 1"),
        ("macro add", "roll 1", "roll 2"),
        ("macro remove", "roll 2", None),
    ]
    assert await rows(chat, Macro) == []


async def test_a_command_always_wins(chat: Chat) -> None:
    text = await ok(chat, "macro add roll = roll 4")
    assert text.endswith(
        "roll is a command, and a command always wins: this macro runs only as macro roll."
    ), text
    chat.dice.extend([5])
    assert "1 die" in await ok(chat, "roll 1")
    chat.dice.extend([1, 2, 3, 4])
    assert "4 dice" in await ok(chat, "macro roll")
    for name in ("add", "list", "x.y", "_x", "a" * 25, "é" * 13):
        assert "cannot name a macro" in await refused(chat, f"macro add {name} = roll 1")
    assert "Your macro é12345678901" in await ok(chat, "macro add É12345678901 = roll 1")


async def test_chronicle_macros_and_shadowing(chat: Chat) -> None:
    text = await refused(chat, "macro add --chronicle hit = roll 2")
    assert text == "macro add --chronicle needs the Storyteller role, which you do not have."
    await ok(chat, "macro add --chronicle hit = roll 2", as_="st", st=True)
    chat.dice.extend([9, 9])
    assert "Mira rolls 2 dice" in await ok(chat, "hit")  # every player in the channel sees it
    assert "Unknown command 'hit'" in await refused(chat, "hit", channel="elsewhere")
    text = await ok(chat, "macro add hit = roll 1")
    assert text.endswith("Your own macro hit shadows the channel's for you."), text
    chat.dice.extend([9])
    assert "Mira rolls 1 die" in await ok(chat, "hit")
    chat.dice.extend([9, 9])
    assert "Bob rolls 2 dice" in await ok(chat, "hit", as_="bob")
    assert "hit (yours, over the channel's)" in await ok(chat, "macro list")
    shown = await ok(chat, "macro show hit")
    assert shown == "Your macro hit (Nightcap): roll 1 It shadows the channel's macro of that name: roll 2"
    assert await ok(chat, "macro show --chronicle hit") == "Channel macro hit (Nightcap): roll 2"
    assert "needs the Storyteller role" in await refused(chat, "macro remove --chronicle hit")
    assert (
        await ok(chat, "macro remove --chronicle hit", as_="st", st=True) == "Channel macro hit is removed."
    )


async def test_personal_macros_follow_the_person_across_linked_platforms(any_chat: Chat) -> None:
    chat = any_chat
    await ok(chat, "macro add hit = roll 2")
    await ok(chat, "macro add mine = roll 3", as_="555", platform="discord", channel="table")
    await ok(chat, "macro add hit = roll 5", as_="555", platform="discord", channel="table")
    code = (await chat.one("link", as_="mira")).result["code"]  # type: ignore[index]
    await ok(chat, f"link {code}", as_="555", platform="discord", channel="table")
    chat.dice.extend([9, 9])
    assert "2 dice" in await ok(chat, "hit", as_="555", platform="discord", channel="table")
    chat.dice.extend([9, 9, 9])
    assert "3 dice" in await ok(chat, "mine")  # the merged person's macro moved to the survivor
    assert len(await rows(chat, Macro)) == 2


async def test_no_privilege_through_a_macro(chat: Chat) -> None:
    await ok(chat, "macro add peek = st log")
    assert (
        await refused(chat, "peek") == "Macro peek: st log needs the Storyteller role, which you do not have."
    )
    assert (await chat.one("peek", as_="mira")).error == "forbidden"
    assert "Storyteller log" in await ok(chat, "peek", st=True)  # a Storyteller's own macro may
    await ok(chat, "macro add me = roll 1")
    assert "needs a verified account" in await refused(chat, "macro list", verified=False)


async def test_loops_depth_and_length_are_refused(chat: Chat) -> None:
    await ok(chat, "macro add a = b")
    await ok(chat, "macro add b = a")
    assert await refused(chat, "a") == "Macro a calls itself (a → b → a); a macro may not loop."
    names = [f"m{i}" for i in range(MAX_DEPTH + 1)]
    for name, inner in itertools.pairwise(names):
        await ok(chat, f"macro add {name} = {inner}")
    await ok(chat, f"macro add {names[-1]} = roll 1")
    assert await refused(chat, "m0") == f"Macro m0 nests macros more than {MAX_DEPTH} deep."
    chat.dice.extend([9])
    assert "1 die" in await ok(chat, "m1")
    await ok(chat, "macro add ten = " + " ; ".join(["roll 1"] * MAX_COMMANDS))
    await ok(chat, "macro add many = ten ; roll 1")
    assert await refused(chat, "many") == f"Macro many runs more than {MAX_COMMANDS} commands."
    await ok(chat, "macro add wide = ten ; ten")
    assert await refused(chat, "wide") == f"Macro wide runs more than {MAX_COMMANDS} commands."
    await ok(chat, "macro add long = roll {1} ; roll {1}")
    text = await refused(chat, "long " + "x" * 1500)
    assert text == "Macro long expands to more than 2000 characters."


async def test_a_bad_macro_gets_one_line_and_nothing_is_kept(chat: Chat) -> None:
    await ok(chat, "macro add bad = roll 2 ; rol 3")
    chat.dice.extend([9, 9])
    text = await refused(chat, "bad")
    assert text == "Macro bad: Unknown command 'rol'. Did you mean roll? Type help for the list.", text
    assert await chat.stlog() == []  # the first roll was rolled back with the unit
    for body, line in [
        ("roll {", "Macro x: a { or } has no partner; write {{ or }} for a brace itself."),
        ("roll {0}", "Macro x: {0} is no parameter; numbered ones run from {1} to {9}."),
        ("roll {a b}", "Macro x: {a b} is no parameter; write {1}, {name} or {name=default}."),
        ("roll {a=1} {a=2}", "Macro x: {a} has two different defaults; give it one."),
        ("roll 1 ;; roll 2", "Macro x: one of its commands is empty (two ; in a row, or one at the end)."),
    ]:
        assert await refused(chat, f"macro add x = {body}") == line
    assert await refused(chat, "macro add x") == (
        "Write macro add [--chronicle] NAME = COMMAND; COMMAND..., with {1}, {2}, {name} or"
        " {name=default} where the values go."
    )
    assert await rows(chat, Macro) == [m for m in await rows(chat, Macro) if m.name == "bad"]


async def test_a_macro_keeps_the_comment_of_its_line(chat: Chat) -> None:
    await ok(chat, "macro add hit = roll 2 ; roll 1")
    chat.dice.extend([9, 9, 5])
    replies = await chat.say("hit # sneaking past", as_="mira")
    assert [r.result["comment"] for r in replies if r.result] == ["sneaking past", "sneaking past"]
    assert replies[0].text.endswith(" — sneaking past"), replies[0].text
    entries = await chat.stlog()
    assert [e.text.endswith(" — sneaking past") for e in entries] == [True, True]
    # A body's own comment is its commands' default; the line's wins.
    await ok(chat, "macro add sneak = roll 1 # quietly")
    chat.dice.extend([9, 9])
    assert (await chat.one("sneak", as_="mira")).text.endswith(" — quietly")
    assert (await chat.one("sneak # loudly", as_="mira")).text.endswith(" — loudly")
    # A macro that logs no roll takes the line whole, as a command does (here: too many values).
    await ok(chat, "macro add l = macro list")
    assert (await chat.one("l # note", as_="mira")).text.startswith("Macros for Nightcap")


async def test_in_a_chat_room_a_macro_needs_the_prefix(chat: Chat) -> None:
    await room(chat, "!macro add hit = roll 2", as_="mira")
    assert await room(chat, "hit", as_="mira") == []  # bare: ordinary chat
    chat.dice.extend([9, 9])
    replies = await room(chat, "!hit", as_="mira")
    assert "2 dice" in replies[0].text


async def test_czech_and_russian(chat: Chat) -> None:
    await ok(chat, "lang cs")
    assert await refused(chat, "macro add x = roll {") == (
        "Makro x: { nebo } nemá pár; samotnou závorku napište jako {{ nebo }}."
    )
    await ok(chat, "lang ru")
    await ok(chat, "macro add y = roll {1} {2}")
    assert await refused(chat, "y 1 2 3") == "Макрос y принимает 2 значения; '3' — лишнее."


async def test_macros_are_stored_per_owner_system_and_name(any_chat: Chat) -> None:
    chat = any_chat
    await ok(chat, "macro add hit = roll 2")
    await ok(chat, "macro add --chronicle hit = roll 3", as_="st", st=True)
    async with chat.services.vault.transaction() as session:
        found = (
            await session.exec(select(Macro.owner, Macro.system, Macro.name).order_by(col(Macro.id)))
        ).all()
    assert [(o.split(":")[0], s, n) for o, s, n in found] == [
        ("person", "nightcap", "hit"),
        ("channel", "nightcap", "hit"),
    ]
    assert found[1][0] == "channel:console:main"


async def test_help_shows_the_macro_topic(chat: Chat) -> None:
    index = await ok(chat, "help")
    assert "macro (4)" in index, index
    topic = await ok(chat, "help macro")
    assert topic.startswith("macro commands (4): macro add: save a macro"), topic
    assert "Usage: macro add [--chronicle] NAME = COMMAND; COMMAND" in await ok(chat, "help macro add")
    await ok(chat, "lang cs")
    assert "uloží makro" in await ok(chat, "help macro")


async def test_a_heavy_command_runs_alone_in_a_macro(chat: Chat) -> None:
    await ok(chat, "macro add o = odds 5")
    assert (await ok(chat, "o")).startswith("Odds for 5 dice: ")  # computed off the loop, as typed
    await ok(chat, "macro add o2 = odds 5 ; odds 4")
    text = await refused(chat, "o2")
    assert text == "Macro o2: odds takes a while, so it runs only as a macro's single command."
