"""Issue 14, Discord: the adapter's own words (button labels, embed labels, its replies) are in the
reader's language: the one ``lang`` set for the person or the channel, else their Discord client's."""

from __future__ import annotations

import json

import pytest

from adapters.discord import texts
from tests.discord.conftest import DiscordEnv
from tests.discord.test_components import BOB, buttons, click, gw

pytestmark = pytest.mark.both_modes


def labels(answer: dict[str, object]) -> set[str]:
    return set(buttons(answer))  # type: ignore[arg-type]


def embed_fields(answer: dict[str, object]) -> list[str]:
    data = answer["data"]
    assert isinstance(data, dict)
    return [f["name"] for f in data["embeds"][0]["fields"]]


async def test_a_czech_reader_gets_czech_buttons_and_embed_labels(env: DiscordEnv) -> None:
    await gw(env, "lang cs")
    env.dice.extend([9, 5, 10])
    answer = await gw(env, "roll 3")
    assert labels(answer) == {"Hodit znovu", "Šance"}
    assert embed_fields(answer) == ["Kostky", "Celkem", "Stupeň"]
    assert "3 kostky" in answer["data"]["embeds"][0]["title"]


async def test_the_clicker_s_language_not_the_roller_s(env: DiscordEnv) -> None:
    await gw(env, "lang ru")  # Mira reads Russian; Bob chose nothing, nor does his client say
    env.dice.extend([9, 5, 10, 3, 3])
    first = await gw(env, "roll 5")
    assert labels(first) == {"Бросить ещё раз", "Шансы"}
    assert "5 кубиков" in first["data"]["embeds"][0]["title"]
    env.dice.extend([2, 2, 7, 1, 1])
    again = await click(env, buttons(first)["Бросить ещё раз"]["custom_id"], user=BOB, username="bob")
    assert labels(again) == {"Roll again", "Odds"}
    assert embed_fields(again) == ["Dice", "Total", "Degree"]


async def test_the_discord_client_language_when_nobody_chose_one(env: DiscordEnv) -> None:
    payload = env.interaction("gw", [{"name": "text", "type": 3, "value": "roll 2"}])
    payload["locale"] = "ru"
    env.dice.extend([9, 5])
    body = json.dumps(payload).encode()
    answer = await (await env.post(body, env.sign(body))).json()
    assert labels(answer) == {"Бросить ещё раз", "Шансы"}
    assert embed_fields(answer) == ["Кубики", "Итог", "Степень"]


async def test_an_unknown_button_is_refused_in_the_reader_s_language(env: DiscordEnv) -> None:
    await gw(env, "lang cs")
    refused = await click(env, "gw:k:" + "0" * 24)
    assert refused["data"]["content"] == texts.t("cs", "button.unknown")
    assert refused["data"]["content"].startswith("Toto tlačítko")


def test_every_text_is_in_english_czech_and_russian() -> None:
    keys = set(texts.TEXTS.messages["en"])
    for locale in ("cs", "ru"):
        assert set(texts.TEXTS.messages[locale]) == keys, locale
