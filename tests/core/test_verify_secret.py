"""A secret roll by id (issue 30, item 4): ``verify ID`` shows its dice, its roller and its comment
only to the roller and to Storytellers; anyone else learns that the id exists and is secret, in their
own language, and nothing more. An open roll is shown to everyone as before."""

from __future__ import annotations

from gateway.core.core_messages import say as core_say
from gateway.testing import Chat

PLAN = "the hidden plan"


async def secret_roll(chat: Chat) -> str:
    chat.dice.extend([9, 8, 2, 10, 7])
    replies = await chat.say(f"roll 4 secret # {PLAN}", "mira")
    [rolled] = [r for r in replies if r.result and r.result.get("id")]
    assert rolled.result is not None and rolled.result.get("secret") is True
    return str(rolled.result["id"])


async def test_others_learn_only_that_the_id_is_a_secret_roll(chat: Chat) -> None:
    roll_id = await secret_roll(chat)
    for as_ in ("peeker", "stranger"):
        [reply] = await chat.say(f"verify {roll_id}", as_)
        assert reply.error is None
        assert reply.text == core_say("en", "verify.secret", id=roll_id)
        assert PLAN not in reply.text and "Mira" not in reply.text and "console:mira" not in reply.text
        assert reply.result == {"kind": "verify", "id": roll_id, "secret": True}
    await chat.say("lang cs", "ceska")
    [czech] = await chat.say(f"verify #{roll_id.upper()}", "ceska")
    assert czech.text == f"#{roll_id} je tajný hod: vidí ho jen ten, kdo házel, a Vypravěči."
    await chat.say("lang ru", "russkij")
    [russian] = await chat.say(f"verify {roll_id}", "russkij")
    assert russian.text == f"#{roll_id} — тайный бросок: его видят только бросавший и Рассказчики."


async def test_the_roller_and_storytellers_see_the_whole_roll(chat: Chat) -> None:
    roll_id = await secret_roll(chat)
    for as_, st in (("mira", False), ("sam", True)):
        [reply] = await chat.say(f"verify {roll_id}", as_, st=st)
        assert reply.text.startswith(f"#{roll_id}: Mira (console:mira) rolled Nightcap"), reply.text
        assert PLAN in reply.text
        assert reply.result is not None and reply.result["roll"]["secret"] is True


async def test_an_open_roll_is_shown_to_anyone(chat: Chat) -> None:
    chat.dice.extend([9, 8])
    [rolled] = await chat.say(f"roll 2 # {PLAN}", "mira")
    assert rolled.result is not None
    [reply] = await chat.say(f"verify {rolled.result['id']}", "stranger")
    assert "Mira (console:mira)" in reply.text and PLAN in reply.text


async def test_stats_still_count_a_secret_roll(chat: Chat) -> None:
    await secret_roll(chat)
    [reply] = await chat.say("stats me", "mira")
    assert reply.result is not None and reply.result.get("rolls") == 1, (reply.text, reply.result)
