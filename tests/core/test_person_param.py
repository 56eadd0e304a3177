"""The ``person`` parameter kind: ``st add`` / ``st remove`` take ``PLATFORM:ID`` or the display name of
one person the gateway has seen; a name nobody has, or several people have, is refused in the reader's
language. Discord offers a user picker for it; the console completes the people seen."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from adapters.console.complete import Names, completions
from adapters.console.names import people
from adapters.discord import slash
from gateway import Command, Param
from gateway.core.app import Gateway
from gateway.core.core_params import PARAMS
from gateway.core.dice import ScriptedDice
from gateway.core.params import bind
from gateway.core.settings import Settings
from gateway.testing import Chat, Clock
from tests.core.test_storytellers import DISCORD, OWNER
from tests.nightcap.helpers import ok, refused

IRC = {"platform": "irc", "channel": "#table"}


@pytest.fixture
async def owned(vault_url: str) -> AsyncIterator[Chat]:
    """A chat whose vault (SQLite, and PostgreSQL where one is given) has an owner, discord:1000."""
    clock, dice = Clock(), ScriptedDice([])
    settings = Settings(vault={"url": vault_url, "owner": OWNER})
    gateway = Gateway(settings, dice=dice, clock=clock, platforms=())
    await gateway.upgrade_vault()
    await gateway.start()
    yield Chat(gateway=gateway, dice=dice, clock=clock)
    await gateway.stop()


def test_a_person_is_a_name_that_may_hold_spaces() -> None:
    params = (Param("who", "person", "someone", required=True), Param("n", "integer", "a number"))
    assert bind(params, ["Mira", "Vance", "2"]) == {"who": "Mira Vance", "n": 2}
    assert bind(params, ["discord:80351110224678912"]) == {"who": "discord:80351110224678912"}


async def test_st_add_and_remove_by_the_name_of_someone_seen(owned: Chat) -> None:
    chat = owned
    await ok(chat, "lang", "bob", **DISCORD)  # Bob speaks: the gateway has seen him
    added = await ok(chat, "st add bob", "1000", **DISCORD)  # case-blind
    assert added.text == "discord:bob (Bob) is now a Storyteller, on every platform they link."
    assert (await ok(chat, "st list", "bob", **DISCORD)).private
    removed = await ok(chat, "st remove Bob", "1000", **DISCORD)
    assert removed.text == "discord:bob is no longer a Storyteller."
    # A name held by two people (an IRC Bob not linked to the Discord one) names neither.
    await ok(chat, "lang", "bob", **IRC)
    assert await refused(chat, "st add Bob", "1000", **DISCORD) == (
        "Several people are called Bob (irc:bob, discord:bob): write one of them as PLATFORM:ID."
    )
    assert (await ok(chat, "st add irc:bob", "1000", **DISCORD)).result == {
        "kind": "storyteller",
        "identity": "irc:bob",
        "storyteller": True,
    }


async def test_a_name_written_as_seen_in_cyrillic(owned: Chat) -> None:
    chat = owned
    await ok(chat, "lang", "мира", **DISCORD)  # display name «Мира»
    added = await ok(chat, "st add Мира", "1000", **DISCORD)
    assert added.result is not None and added.result["identity"] == "discord:мира"
    if chat.services.vault.dialect == "postgresql":  # SQLite's lower() folds ASCII only
        removed = await ok(chat, "st remove мира", "1000", **DISCORD)
        assert removed.text == "discord:мира is no longer a Storyteller."


@pytest.mark.parametrize(
    ("code", "unknown", "ambiguous"),
    [
        (
            "cs",
            "Nikoho jménem Nikdo brána zatím neviděla: napište PLATFORMA:ID,"
            " např. discord:80351110224678912.",
            "Jméno Bob má více lidí (irc:bob, discord:bob): napište jednoho z nich jako PLATFORMA:ID.",
        ),
        (
            "ru",
            "Никого по имени Nikdo шлюз ещё не встречал: напишите ПЛАТФОРМА:ID, например"
            " discord:80351110224678912.",
            "Имя Bob носят несколько человек (irc:bob, discord:bob): укажите одного из них как ПЛАТФОРМА:ID.",
        ),
    ],
)
async def test_refusals_in_the_readers_language(owned: Chat, code: str, unknown: str, ambiguous: str) -> None:
    chat = owned
    await ok(chat, f"lang {code}", "1000", **DISCORD)
    await ok(chat, "lang", "bob", **DISCORD)
    await ok(chat, "lang", "bob", **IRC)
    assert await refused(chat, "st add Nikdo", "1000", **DISCORD) == unknown
    assert await refused(chat, "st remove Bob", "1000", **DISCORD) == ambiguous


def test_discord_offers_a_user_picker_and_sends_the_pick_as_an_identity() -> None:
    async def nothing(*_: object) -> None:
        return None

    commands = [
        Command(name, nothing, name, role="storyteller", params=PARAMS[name])
        for name in ("st add", "st remove")
    ]
    slashes = slash.build(commands)
    (option,) = slashes.definitions()[1]["options"][0]["options"]  # /st add
    assert (option["name"], option["type"], option["required"]) == ("identity", slash.USER, True)
    picked = {
        "type": 1,
        "name": "add",
        "options": [{"name": "identity", "type": 6, "value": "80351110224678912"}],
    }
    parsed = slash.command_line({"name": "st", "options": [picked]}, slashes)
    assert parsed is not None and parsed.line == "st add discord:80351110224678912"


def test_the_console_completes_the_people_seen() -> None:
    seen = [("discord:1", "Mira Vance"), ("irc:bob", "Bob"), ("discord:2", "bob"), ("matrix:@x:y", "a:b")]
    offered = people(seen)
    assert offered == ("Mira Vance", "irc:bob", "discord:2", "matrix:@x:y")  # a shared name: the key
    names = Names(commands=("st add", "st remove"), params={"st add": PARAMS["st add"]}, people=offered)
    assert completions("st add Mi", names) == [("Mira Vance", -2)]
    assert completions("st add Mira V", names) == [("Mira Vance", -6)]
    assert ("irc:bob", -1) in completions("st add i", names)
