"""Autocomplete (interaction type 4): trait, power and character names from the vault, for the
channel's rule system, answered with type 8 within Discord's limits."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from nacl.signing import SigningKey

from adapters.discord import complete
from gateway import Channel
from gateway.features import channels
from tests.discord.conftest import CHANNEL, GUILD, DiscordEnv, start_env
from tests.discord.fake_discord import FakeDiscord, answer_problems

pytestmark = pytest.mark.both_modes

OTHER = "500000000000000099"


def opt(name: str, value: Any, kind: int = 3, focused: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "type": kind, "value": value}
    if focused:
        out["focused"] = True
    return out


def sub(name: str, *options: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"name": name, "type": 1, "options": list(options)}]


async def suggest(
    env: DiscordEnv, name: str, options: list[dict[str, Any]], **kw: Any
) -> list[dict[str, Any]]:
    """Send an autocomplete as Discord does; the choices, after the fake has checked the answer."""
    locale = kw.pop("locale", None)
    payload = env.interaction(name, options, **kw)
    payload["type"] = 4
    if locale:
        payload["locale"] = locale
    body = json.dumps(payload).encode()
    started = time.monotonic()
    response = await env.post(body, env.sign(body))
    answer = await response.json()
    assert response.status == 200
    assert answer_problems(answer, time.monotonic() - started, autocomplete=True) == []
    return list(answer["data"]["choices"])


async def gw(env: DiscordEnv, text: str, **kw: Any) -> str:
    answer = await env.command("gw", [opt("text", text)], **kw)
    return str(answer["data"].get("content", ""))


async def play(env: DiscordEnv, system: str, channel: str = CHANNEL) -> None:
    await channels.set_system(env.gateway.services.vault, Channel("discord", f"{GUILD}/{channel}"), system)


@pytest.fixture
async def ac_env(tmp_path: Path, fake: FakeDiscord, key: SigningKey, mode: str) -> AsyncIterator[DiscordEnv]:
    hooks = {"stlog": fake.add_webhook("200")}
    env = await start_env(f"sqlite+aiosqlite:///{tmp_path / 'vault.db'}", fake, key, hooks, mode=mode)
    yield env
    await env.client.close()


async def test_a_decanter_channel_offers_decanter_traits(ac_env: DiscordEnv) -> None:
    await play(ac_env, "decanter")
    assert "Decanter character" in await gw(ac_env, "char new Mira")
    choices = await suggest(ac_env, "roll", [opt("pool", "dex+", focused=True)])
    assert {"name": "dex+dexterity", "value": "dex+dexterity"} in choices
    everything = await suggest(ac_env, "roll", [opt("pool", "", focused=True)])
    values = {c["value"] for c in everything}
    assert {"strength", "wits", "resolve"} <= values and "physical" not in values  # not Nightcap's


async def test_a_nightcap_channel_offers_nightcap_traits_on_every_trait_option(ac_env: DiscordEnv) -> None:
    await gw(ac_env, "char new Mira")
    assert [c["value"] for c in await suggest(ac_env, "trait", [opt("trait", "ph", focused=True)])] == [
        "physical"
    ]
    team = await suggest(ac_env, "team", sub("start", opt("trait", "s", focused=True)))
    assert [c["value"] for c in team] == ["social", "spirit"]


async def test_labels_in_the_book_language_match_and_show(ac_env: DiscordEnv) -> None:
    """Pravidla names its traits in Czech: typing the Czech word finds the key commands take."""
    await play(ac_env, "pravidla")
    await gw(ac_env, "char new Mira")
    choices = await suggest(ac_env, "roll", [opt("pool", "obr", focused=True)])
    assert choices == [{"name": "dexterity (Obratnost)", "value": "dexterity"}]


async def test_without_a_character_the_system_s_first_sheet_names_the_traits(ac_env: DiscordEnv) -> None:
    await play(ac_env, "decanter")
    await gw(ac_env, "char new Mira")
    choices = await suggest(ac_env, "roll", [opt("pool", "wi", focused=True)], user=OTHER, username="bob")
    assert [c["value"] for c in choices] == ["wits"]


async def test_powers_of_the_active_character(ac_env: DiscordEnv) -> None:
    await gw(ac_env, "char new Mira")
    await gw(ac_env, "power add Shadow Step adept physical")
    await gw(ac_env, "power add Ward basic spirit")
    choices = await suggest(ac_env, "power", sub("use", opt("name", "sha", focused=True)))
    assert choices == [{"name": "Shadow Step", "value": "Shadow Step"}]
    assert await suggest(ac_env, "power", sub("use", opt("name", "", focused=True)), user=OTHER) == []


async def test_character_names_of_the_channel_s_system(ac_env: DiscordEnv) -> None:
    await gw(ac_env, "char new Mira Vance")
    await play(ac_env, "decanter", "400000000000000044")
    await gw(ac_env, "char new Mirabel", channel="400000000000000044")
    nightcap = await suggest(ac_env, "st", sub("show", opt("name", "mir", focused=True)))
    assert nightcap == [{"name": "Mira Vance", "value": "Mira Vance"}]
    decanter = await suggest(
        ac_env, "st", sub("show", opt("name", "mir", focused=True)), channel="400000000000000044"
    )
    assert decanter == [{"name": "Mirabel", "value": "Mirabel"}]
    own = await suggest(ac_env, "char", sub("use", opt("name", "", focused=True)))
    assert [c["value"] for c in own] == ["Mira Vance"]
    assert await suggest(ac_env, "char", sub("use", opt("name", "", focused=True)), user=OTHER) == []


async def test_at_most_25_choices(ac_env: DiscordEnv) -> None:
    for i in range(30):
        await gw(ac_env, f"char new Extra {i:02d}", user=f"5000000000000001{i:02d}")
    choices = await suggest(ac_env, "st", sub("show", opt("name", "extra", focused=True)))
    assert len(choices) == 25 and choices[0]["value"] == "Extra 00"


async def test_nothing_to_complete_is_an_empty_list(ac_env: DiscordEnv) -> None:
    assert await suggest(ac_env, "roll", [opt("pool", "", focused=True)]) == []  # no sheet in the system
    assert await suggest(ac_env, "verify", [opt("id", "k3", focused=True)]) == []  # no completion there
    assert await suggest(ac_env, "nosuch", [opt("x", "", focused=True)]) == []


async def test_a_slow_vault_gets_no_choices_in_time(
    tmp_path: Path, fake: FakeDiscord, key: SigningKey, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord drops an autocomplete answered after 3 s: past ``reply_timeout`` the answer is empty."""
    env = await start_env(
        f"sqlite+aiosqlite:///{tmp_path / 'v.db'}", fake, key, {}, mode=mode, reply_timeout=0.2
    )
    release = asyncio.Event()

    async def stuck(services: Any, interaction: Any) -> list[dict[str, str]]:
        await release.wait()
        return [{"name": "late", "value": "late"}]

    monkeypatch.setattr(complete, "choices", stuck)
    try:
        assert await suggest(env, "roll", [opt("pool", "", focused=True)]) == []
    finally:
        release.set()
        await env.client.close()


def test_a_pool_completes_its_last_word() -> None:
    pairs = [("dexterity", "Dexterity"), ("firearms", "Firearms")]
    assert complete.matching(pairs, "dexterity + fi", last_word=True) == [
        {"name": "dexterity + firearms", "value": "dexterity + firearms"}
    ]
    assert complete.matching(pairs, "arms", last_word=False) == [{"name": "firearms", "value": "firearms"}]
    long = [("x" * 99, "x" * 99)]
    assert complete.matching(long, "ab ", last_word=True) == []  # over 100 characters: left out


async def test_a_failed_read_offers_nothing_and_the_endpoint_still_answers(
    ac_env: DiscordEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(services: Any, interaction: Any) -> list[dict[str, str]]:
        raise RuntimeError("vault gone")

    monkeypatch.setattr(complete, "choices", broken)
    assert await suggest(ac_env, "roll", [opt("pool", "", focused=True)]) == []


async def test_labels_follow_the_discord_client_s_language(ac_env: DiscordEnv) -> None:
    await play(ac_env, "nightwanderers")
    await gw(ac_env, "char new Mira")
    english = await suggest(ac_env, "roll", [opt("pool", "stre", focused=True)], locale="en-US")
    russian = await suggest(ac_env, "roll", [opt("pool", "stre", focused=True)])
    assert [c["value"] for c in english] == [c["value"] for c in russian] == ["strength"]
    assert russian[0]["name"] == "strength (Сила)"
    assert english[0]["name"] == "strength", english  # "Strength": no label beside the key


async def test_house_rule_switches_of_the_channel_s_system(ac_env: DiscordEnv) -> None:
    """A ``house_rule`` parameter offers the switches the channel's system declares, each with its
    meaning in the reader's language; another system's channel offers its own."""
    await play(ac_env, "decanter")
    decanter = await suggest(ac_env, "house", sub("set", opt("rule", "", focused=True)))
    names = [c["value"] for c in decanter]
    assert {"tens_double", "ones_subtract", "automatic_success"} <= set(names)
    assert {
        "name": "tens_double (a 10 counts two successes (off: one, like a 6))",
        "value": "tens_double",
    } in decanter
    czech = await suggest(ac_env, "house", sub("set", opt("rule", "tens", focused=True)), locale="cs")
    assert czech == [
        {
            "name": "tens_double (desítka platí za dva úspěchy (vypnuto: za jeden, jako…)",
            "value": "tens_double",
        }
    ]
    await play(ac_env, "nightcap")
    nightcap = [c["value"] for c in await suggest(ac_env, "house", sub("set", opt("rule", "", focused=True)))]
    assert nightcap and set(nightcap) != set(names)
    first = names[0]
    assert [c["value"] for c in await suggest(ac_env, "house", sub("set", opt("rule", first, focused=True)))][
        :1
    ] == [first]
