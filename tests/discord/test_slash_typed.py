"""Typed slash commands: integer options with bounds, a USER option for /st add, Storyteller
permissions, Czech and Russian localisations; the registration validated as Discord validates it,
and a typed option builds the command line a person would type."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey

from adapters.discord import slash
from adapters.discord.cli import register
from adapters.discord.config import load
from gateway import Channel, channels
from tests.discord.conftest import CHANNEL, GUILD, DiscordEnv, discord_settings, start_env
from tests.discord.fake_discord import FakeDiscord, command_problems, invocation_problems

STORYTELLER = "600000000000000006"
NEWCOMER = "700000000000000007"


def opt(name: str, value: Any, kind: int = 3) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": name, "type": 1, "options": list(options)}]


def find(definitions: list[dict[str, Any]], *path: str) -> dict[str, Any]:
    item: dict[str, Any] = {"options": definitions}
    for name in path:
        item = next(o for o in item["options"] if o["name"] == name)
    return item


def line(name: str, options: list[dict[str, Any]]) -> str:
    parsed = slash.command_line({"name": name, "options": options})
    assert parsed is not None
    return parsed.line


# --------------------------------------------------------------------------- the registration


async def test_registration_is_accepted_by_the_fake_with_the_configured_max_pool(
    tmp_path: Path, fake: FakeDiscord, key: SigningKey
) -> None:
    settings = discord_settings("sqlite+aiosqlite://", fake, key, {}, {"gateway": {"max_pool": 30}})
    config = load(settings.section("discord"))
    status, stored = await register(config, fake.bot_token, None, settings.gateway.max_pool)
    assert status == 200, stored
    assert find(stored, "roll", "dice")["type"] == 3  # notation or a number (issue 33)
    assert find(stored, "st", "roll", "dice")["max_value"] == 30


def test_pools_modifiers_and_difficulties_are_bounded_integers() -> None:
    definitions = slash.definitions()
    assert command_problems(definitions) == []
    for command in ("roll", "odds"):
        bounds = {
            name: (
                find(definitions, command, name)["type"],
                find(definitions, command, name)["min_value"],
                find(definitions, command, name)["max_value"],
            )
            for name in ("modifier", "dc", "diff", "tn")
        }
        assert bounds == {
            "modifier": (4, -10, 10),
            "dc": (4, 1, 8),  # Decanter: easy 1 .. superhuman 8
            "diff": (4, 2, 10),  # Dramatic Systems (Night Wanderers clamps to 6 and says so)
            "tn": (4, 2, 6),  # Pravidla
        }
        dice = find(definitions, command, "dice")  # dice notation or a number (issue 33)
        assert (dice["type"], dice["max_length"], dice["autocomplete"]) == (3, 200, True)
    free = [o["name"] for c in definitions for o in c.get("options", []) if o["type"] == 3]
    assert "pool" in free  # a pool still takes a trait, wp, vs ...


def test_trait_options_complete_instead_of_offering_nightcap_s_four() -> None:
    definitions = slash.definitions()
    text = json.dumps(definitions)
    assert '"physical"' not in text  # no fixed Nightcap choices in a command every system shares
    for path in (
        ("trait", "trait"),
        ("team", "start", "trait"),
        ("st", "rollstat", "trait"),
        ("roll", "pool"),
    ):
        assert find(definitions, *path).get("autocomplete") is True, path
    assert find(definitions, "power", "use", "name")["autocomplete"] is True
    assert find(definitions, "st", "show", "name")["autocomplete"] is True
    assert "autocomplete" not in find(definitions, "char", "new", "name")


def test_storyteller_commands_need_manage_guild_and_st_add_takes_a_user() -> None:
    definitions = slash.definitions()
    st = find(definitions, "st")
    assert st["default_member_permissions"] == "32"  # MANAGE_GUILD, 1 << 5
    assert all("default_member_permissions" not in c for c in definitions if c["name"] != "st")
    user = find(definitions, "st", "add", "user")
    assert user["type"] == 6 and find(definitions, "st", "add", "identity")["type"] == 3


def test_core_commands_speak_czech_and_russian_and_each_system_its_own() -> None:
    definitions = slash.definitions()
    for name in ("roll", "odds", "help", "verify", "link", "unlink", "gw", "st"):
        texts = find(definitions, name)["description_localizations"]
        assert set(texts) == {"cs", "ru"}, name
    assert find(definitions, "roll")["name_localizations"] == {"cs": "hod", "ru": "бросок"}
    assert find(definitions, "st", "add")["description_localizations"]["cs"] == "Jmenování Vypravěče"
    assert set(find(definitions, "roll", "tn")["description_localizations"]) == {"cs"}  # Pravidla
    assert set(find(definitions, "roll", "diff")["description_localizations"]) == {"ru"}  # Night Wanderers


def test_the_fake_refuses_what_discord_refuses_in_a_registration() -> None:
    good = {"type": 1, "name": "x", "description": "d"}

    def with_option(**option: Any) -> list[str]:
        return command_problems([{**good, "options": [{"name": "o", "description": "d", **option}]}])

    assert with_option(type=4, min_value=5, max_value=1) == ["x.o: min_value above max_value"]
    assert with_option(type=3, min_value=1) == ["x.o: min_value/max_value are for INTEGER and NUMBER options"]
    assert with_option(type=4, max_length=5) == ["x.o: min_length/max_length are for STRING options"]
    assert with_option(type=5, autocomplete=True) == [
        "x.o: autocomplete is for STRING, INTEGER and NUMBER options"
    ]
    assert with_option(type=3, autocomplete=True, choices=[{"name": "a", "value": "a"}]) == [
        "x.o: autocomplete and choices exclude each other"
    ]
    assert with_option(type=4, max_value=2**53) == ["x.o: bound 9007199254740992 is no number Discord takes"]
    assert with_option(type=3, name_localizations={"cz": "o"}) == [
        "x.o: name_localizations: 'cz' is no Discord locale"
    ]
    assert with_option(type=3, name_localizations={"ru": "Бросок"}) == [
        "x.o: name_localizations.ru: bad name 'Бросок'"
    ]
    assert with_option(type=3, description_localizations={"cs": "x" * 101}) == [
        "x.o: description_localizations.cs: description length"
    ]
    assert command_problems([{**good, "default_member_permissions": 32}]) == [
        "x: default_member_permissions is a string of digits (a bitfield) or null"
    ]


# --------------------------------------------------------------------------- invocations


def test_bounds_are_refused_by_the_client() -> None:
    definitions = slash.definitions(max_pool=20)
    assert (
        invocation_problems(definitions, {"name": "roll", "options": [opt("dc", 8, 4), opt("dice", "20", 3)]})
        == []
    )
    assert invocation_problems(definitions, {"name": "roll", "options": [opt("dc", 9, 4)]}) == [
        "dc: 9 above 8"
    ]
    assert invocation_problems(definitions, {"name": "roll", "options": [opt("tn", 1, 4)]}) == [
        "tn: 1 below 2"
    ]
    assert invocation_problems(definitions, {"name": "odds", "options": [opt("modifier", -11, 4)]}) == [
        "modifier: -11 below -10"
    ]
    # /roll's dice is text (notation or a number, issue 33); st roll's is a bounded integer.
    assert invocation_problems(definitions, {"name": "st", "options": sub("roll", opt("dice", 21, 4))}) == [
        "dice: 21 above 20"
    ]
    assert invocation_problems(definitions, {"name": "st", "options": sub("roll", opt("dice", "3", 4))}) == [
        "dice: '3' is no integer"
    ]
    st_roll = {"name": "st", "options": sub("roll", opt("modifier", 2, 4))}
    assert invocation_problems(definitions, st_roll) == ["dice: required"]


def test_typed_options_build_the_line_a_person_types() -> None:
    roll = [opt("pool", "dex+firearms"), opt("modifier", -2, 4), opt("dc", 3, 4), opt("secret", True, 5)]
    assert line("roll", roll) == "roll dex+firearms -2 dc 3 secret"
    assert line("roll", [opt("dice", "5", 3), opt("modifier", 1, 4), opt("diff", 6, 4)]) == "roll 5 +1 diff 6"
    assert line("roll", [opt("dice", "4d6kh3"), opt("secret", True, 5)]) == "roll 4d6kh3 secret"
    assert line("odds", [opt("pool", "šarm"), opt("tn", 5, 4)]) == "odds šarm tn 5"
    assert line("roll", [opt("pool", "physical wp"), opt("modifier", 0, 4), opt("against", "mental")]) == (
        "roll physical wp vs mental"
    )
    assert line("st", sub("roll", opt("dice", 4, 4), opt("modifier", 1, 4), opt("label", "the guard"))) == (
        "st roll 4 +1 the guard"
    )
    assert line("st", sub("add", opt("user", NEWCOMER, 6))) == f"st add discord:{NEWCOMER}"
    assert line("st", sub("remove", opt("identity", "irc:mira"))) == "st remove irc:mira"


@pytest.fixture
async def st_env(tmp_path: Path, fake: FakeDiscord, key: SigningKey) -> AsyncIterator[DiscordEnv]:
    sections = {"vault": {"owner": f"discord:{STORYTELLER}"}}
    hooks = {"stlog": fake.add_webhook("200")}
    env = await start_env(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, hooks, sections)
    yield env
    await env.client.close()


async def content(env: DiscordEnv, name: str, options: list[dict[str, Any]], **kw: Any) -> str:
    assert invocation_problems(slash.definitions(), {"name": name, "options": options}) == []
    answer = await env.command(name, options, **kw)
    assert answer["type"] == 4, answer
    return str(answer["data"]["content"])


async def test_a_typed_roll_answers_as_the_typed_command_does(st_env: DiscordEnv) -> None:
    await channels.set_system(
        st_env.gateway.services.vault, Channel("discord", f"{GUILD}/{CHANNEL}"), "decanter"
    )
    st_env.dice.extend([9, 2, 7, 7, 9, 2, 7, 7])
    typed = await content(st_env, "roll", [opt("dice", "3"), opt("modifier", 1, 4), opt("dc", 3, 4)])
    written = await content(st_env, "gw", [opt("text", "roll 3 +1 dc 3")])
    assert typed.split("#")[0] == written.split("#")[0]
    assert "DC 3" in typed


async def test_st_add_with_a_discord_user(st_env: DiscordEnv) -> None:
    answer = await content(
        st_env, "st", sub("add", opt("user", NEWCOMER, 6)), user=STORYTELLER, username="st"
    )
    assert answer.startswith(f"discord:{NEWCOMER} (") and "is now a Storyteller" in answer, answer
    listed = await content(st_env, "st", sub("list"), user=NEWCOMER, username="newcomer")
    assert NEWCOMER in listed, listed
