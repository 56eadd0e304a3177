"""``/macro`` (issue 18): autocomplete offers the person's macros and the channel's for the channel's
rule system, and the command runs one through the router as ``macro NAME VALUES``."""

from __future__ import annotations

import pytest

from adapters.discord import macro_command, slash
from tests.discord.conftest import DiscordEnv
from tests.discord.test_autocomplete import ac_env, gw, opt, play, sub, suggest  # noqa: F401

pytestmark = pytest.mark.both_modes

OTHER_USER = "500000000000000077"


def test_macro_run_is_a_slash_command_with_a_completed_name() -> None:
    slashes = slash.build([], (macro_command.command(),))
    found = next(d for d in slashes.definitions() if d["name"] == "macro")
    [run] = found["options"]
    name, values = run["options"]
    assert name["autocomplete"] is True and name["required"] is True and values["required"] is False
    assert run["description_localizations"]["cs"].startswith("Spustí jedno z vašich maker")
    parsed = slash.command_line(
        {"name": "macro", "options": sub("run", opt("name", "hit"), opt("values", "3  pool=2"))}, slashes
    )
    assert parsed is not None and parsed.line == "macro hit 3 pool=2"


async def test_autocomplete_offers_my_macros_and_the_channels(ac_env: DiscordEnv) -> None:  # noqa: F811
    assert "Your macro hit" in await gw(ac_env, "macro add hit = roll {1}")
    assert "Your macro heal" in await gw(ac_env, "macro add heal = roll 1")
    assert await suggest(ac_env, "macro", sub("run", opt("name", "h", focused=True))) == [
        {"name": "heal", "value": "heal"},
        {"name": "hit", "value": "hit"},
    ]
    assert await suggest(ac_env, "macro", sub("run", opt("name", "hi", focused=True))) == [
        {"name": "hit", "value": "hit"}
    ]
    # Another person sees none of them; another system's channel neither.
    assert await suggest(ac_env, "macro", sub("run", opt("name", "", focused=True)), user=OTHER_USER) == []
    await play(ac_env, "dramatic")
    assert await suggest(ac_env, "macro", sub("run", opt("name", "", focused=True))) == []


async def test_the_command_runs_the_macro(ac_env: DiscordEnv) -> None:  # noqa: F811
    await gw(ac_env, "macro add hit = roll {1}")
    ac_env.dice.extend([9, 5, 10])
    answer = await ac_env.command("macro", sub("run", opt("name", "hit"), opt("values", "3")))
    assert "rolls 3 dice: 9 5 10" in str(answer["data"].get("content", "")), answer
    refused = await ac_env.command("macro", sub("run", opt("name", "nope")))
    assert "there is no macro nope here" in str(refused["data"].get("content", "")), refused
