"""An unknown trait offers the closest one (issue 15), in every system, in the reader's language
where the system has a catalogue: ``roll phisical`` -> "Did you mean physical?"."""

from __future__ import annotations

from gateway.rules.closest import closest
from gateway.testing import Chat
from tests.helpers.chat import play


def test_the_closest_name_after_folding() -> None:
    assert closest("phisical", ["physical", "mental", "social", "spirit"]) == "physical"
    assert closest("PHISICAL", ["physical", "mental"]) == "physical"
    assert closest("frobnicate", ["physical", "mental", "social", "spirit"]) is None
    assert closest("", ["physical"]) is None
    assert closest("Dex_terity", ["dexterity"], lambda w: w.casefold().replace("_", "")) == "dexterity"


async def _refused(chat: Chat, line: str, as_: str = "mira") -> str:
    reply = await chat.one(line, as_=as_)
    assert reply.error is not None, reply.text
    return reply.text


async def test_nightcap_suggests_the_trait(chat: Chat) -> None:
    assert await _refused(chat, "roll phisical") == "Unknown trait 'phisical'. Did you mean physical?"
    # Nothing close: the traits are listed, as before.
    assert "Roll a number or one of physical" in await _refused(chat, "roll frobnicate")


async def test_nightcap_suggests_the_trait_on_a_sheet_command(chat: Chat) -> None:
    await chat.one("char new Mira", as_="mira")
    text = await _refused(chat, "trait menttal 3")
    assert "Did you mean mental?" in text, text


async def test_dramatic_suggests_the_trait(chat: Chat) -> None:
    await play(chat, "dramatic", as_="st")
    text = await _refused(chat, "roll dexterty + athletics")
    assert text == "Unknown trait 'dexterty'. Did you mean Dexterity?", text


async def test_decanter_suggests_the_trait(chat: Chat) -> None:
    await play(chat, "decanter", as_="st")
    text = await _refused(chat, "roll dexterty + firearms dc 3")
    assert text == "Unknown trait 'dexterty': did you mean Dexterity?", text


async def test_night_wanderers_suggests_the_trait_in_russian_and_english(chat: Chat) -> None:
    await play(chat, "nightwanderers", as_="st")
    text = await _refused(chat, "roll харизмa")  # a Latin a at the end
    assert text == "Неизвестный атрибут или трюк «харизмa». Может быть, вы имели в виду «Харизма»?", text
    await chat.one("lang en", as_="mira")
    text = await _refused(chat, "roll persuasoin")
    assert text == "Unknown trait persuasoin. Did you mean Persuasion?", text
    assert "Traits:" in await _refused(chat, "roll frobnicate")


async def test_pravidla_suggests_the_trait_in_czech(chat: Chat) -> None:
    await play(chat, "pravidla", as_="st")
    text = await _refused(chat, "roll obratnst")
    assert text == "Neznámá vlastnost „obratnst“. Nemysleli jste vlastnost Obratnost?", text
    await chat.one("lang en", as_="mira")
    assert await _refused(chat, "roll dexteriti") == "Unknown trait dexteriti. Did you mean Dexterity?"
