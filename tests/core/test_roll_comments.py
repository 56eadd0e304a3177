"""A ``# comment`` on a command line (issue 15): kept with the roll in every system, in the reply,
the Storyteller-log line and ``verify``; text to a command that rolls nothing; never an error."""

from __future__ import annotations

import pytest

from gateway.core.parser import split_comment
from gateway.testing import Chat
from tests.helpers.chat import play

NOTE = "sneaking past"


@pytest.mark.parametrize(
    ("line", "body", "comment"),
    [
        ("roll 3 # sneaking past", "roll 3", "sneaking past"),
        ("roll 3 #   sneaking   past  ", "roll 3", "sneaking past"),
        ("roll 3 #", "roll 3", None),
        ("# only a note", "", "only a note"),
        ('char new "Mira # 2"', 'char new "Mira # 2"', None),
        ("char new 'Mira # 2' # her sister", "char new 'Mira # 2'", "her sister"),
        ('char new "Mira #2"', 'char new "Mira #2"', None),
        ("verify #pjkh3", "verify #pjkh3", None),
        ("verify #pjkh3 # that one", "verify #pjkh3", "that one"),
        ("roll 3#4", "roll 3#4", None),
        ("roll 3 #sneaking", "roll 3 #sneaking", None),
        ("roll Mira's dex # a # b", "roll Mira's dex", "a # b"),
        ("roll 3\t# tab", "roll 3", "tab"),
    ],
)
def test_a_comment_begins_at_a_lone_hash_outside_quotes(line: str, body: str, comment: str | None) -> None:
    assert split_comment(line) == (body, comment)


async def _check(chat: Chat, line: str, faces: list[int], as_: str = "mira") -> None:
    chat.dice.extend(faces)
    reply = await chat.one(line, as_=as_)
    assert reply.error is None, reply.text
    roll = reply.result or {}
    assert reply.text.endswith(f" — {NOTE}"), reply.text
    assert roll["comment"] == NOTE
    entries = [e for e in await chat.stlog() if e.result.get("id") == roll["id"]]
    assert entries and entries[-1].text.endswith(f" — {NOTE}"), entries
    found = await chat.one(f"verify {roll['id']}", as_="someone")
    assert found.error is None and found.text.endswith(f" — {NOTE}"), found.text
    assert (found.result or {})["roll"]["comment"] == NOTE


async def test_nightcap_keeps_the_comment(chat: Chat) -> None:
    await _check(chat, f"roll 3 # {NOTE}", [9, 5, 10])


async def test_a_nightcap_contest_keeps_the_comment(chat: Chat) -> None:
    await _check(chat, f"roll 3 vs 2 # {NOTE}", [9, 5, 10, 2, 3])


async def test_decanter_keeps_the_comment(chat: Chat) -> None:
    await play(chat, "decanter", as_="st")
    await _check(chat, f"roll 3 dc 4 # {NOTE}", [9, 5, 10])


async def test_dramatic_keeps_the_comment(chat: Chat) -> None:
    await play(chat, "dramatic", as_="st")
    await _check(chat, f"roll 3 diff 6 # {NOTE}", [9, 5, 10])


async def test_night_wanderers_keeps_the_comment(chat: Chat) -> None:
    await play(chat, "nightwanderers", as_="st")
    await _check(chat, f"roll 3 # {NOTE}", [6, 6, 6])


async def test_pravidla_keeps_the_comment(chat: Chat) -> None:
    await play(chat, "pravidla", as_="st")
    await _check(chat, f"roll 2 tn 4 # {NOTE}", [1, 5])


async def test_a_roll_without_a_comment_has_none(chat: Chat) -> None:
    chat.dice.extend([9, 5, 10])
    reply = await chat.one("roll 3", as_="mira")
    assert "comment" not in (reply.result or {}) and " — " not in reply.text


async def test_a_comment_on_a_command_that_rolls_nothing_is_no_error(chat: Chat) -> None:
    """``help roll # why``: help reads no ``#``, so the comment is left out, the answer stands."""
    plain = await chat.one("help roll", as_="mira")
    noted = await chat.one("help roll # why", as_="mira")
    assert noted.error is None and noted.text == plain.text
    chat.dice.extend([9, 5, 10])
    roll = (await chat.one("roll 3", as_="mira")).result or {}
    found = await chat.one(f"verify #{roll['id']} # that one", as_="someone")
    assert found.error is None and (found.result or {})["id"] == roll["id"]


async def test_a_command_that_takes_text_keeps_the_hash_as_text(chat: Chat) -> None:
    """An announcement is the Storyteller's own text: ``Room # 3`` is said as written."""
    reply = await chat.one("st announce Meet in room # 3", as_="gm", st=True)
    assert reply.error is None, reply.text
    assert reply.text.endswith("Meet in room # 3"), reply.text
    assert (await chat.stlog())[-1].text.endswith("Meet in room # 3")
    # Nothing before the ``#``: the whole line is the text.
    only = await chat.one("st emote here # sighs", as_="gm", st=True)
    assert only.error is None and only.text == "# sighs", only.text


async def test_a_storyteller_roll_keeps_the_comment(chat: Chat) -> None:
    chat.dice.extend([9, 5, 10])
    reply = await chat.one(f"st roll 3 guard # {NOTE}", as_="gm", st=True)
    assert reply.error is None and reply.text.endswith(f" — {NOTE}"), reply.text
    assert (await chat.stlog())[-1].text.endswith(f" — {NOTE}")


async def test_a_bad_roll_with_a_comment_is_refused_for_its_pool_alone(chat: Chat) -> None:
    reply = await chat.one(f"roll phisical # {NOTE}", as_="mira")
    assert reply.error is not None
    assert "#" not in reply.text and "sneaking" not in reply.text, reply.text


async def test_a_comment_on_heavy_work_is_left_out(chat: Chat) -> None:
    """``odds`` computes off the loop and logs no roll: the comment changes nothing."""
    plain = await chat.one("odds 3", as_="mira")
    noted = await chat.one("odds 3 # for the chase", as_="mira")
    assert noted.error is None and noted.text == plain.text, noted.text


async def test_a_retried_message_id_gets_the_one_answer_it_was_given(chat: Chat) -> None:
    """The runs a comment may take happen in rolled-back units: a message id is kept once, with the
    answer that stood, and the Storyteller log has one line."""
    before = len(await chat.stlog())
    first = await chat.say("st announce Room # 3", as_="gm", st=True, message_id="m1")
    again = await chat.say("st announce Room # 3", as_="gm", st=True, message_id="m1")
    assert first == again and first[0].text.endswith("Room # 3")
    assert len(await chat.stlog()) == before + 1
