"""Night Wanderers' declarations read what players type: ``char new`` with the clan as a typed
choice (``clan lesang``: what Discord's picker and the console's completion write) beside the clan
typed after the name in any spelling, as before; and the commands that take nothing (``()``) still
answer their bare line and refuse words after it in the book's words, not the core's."""

from __future__ import annotations

import pytest

from adapters.console.complete import Names, completions
from adapters.console.names import load_names, visible_commands
from gateway import Channel, Identity
from gateway.testing import Chat
from gateway.vault.models import Character
from plugins.nightwanderers.params import CLAN
from plugins.nightwanderers.sheet import CLANS
from tests.helpers.chat import rows


async def test_the_clan_choice_is_the_book_s_humanity_table() -> None:
    """Гуманность: Асванг 8 ... Человек 8: twelve rows, the keys ``st set NAME clan`` takes too."""
    assert CLAN.choices == tuple(CLANS) and len(CLANS) == 12
    assert set(CLAN.texts) == {"ru", "cs"} and CLAN.keyword == "clan" and not CLAN.required


@pytest.mark.parametrize(
    ("line", "name", "kind", "clan", "humanity"),
    [
        # As Discord's picker and the console write it: the clan's key after ``clan``.
        ("char new Мира clan lesang", "Мира", "vampire", "lesang", 8),
        ("char new Анна Мария clan bellemort", "Анна Мария", "vampire", "bellemort", 7),
        ("char new clan tragander Тень", "Тень", "vampire", "tragander", 4),  # a keyword stands anywhere
        ("char new Волк clan wer", "Волк", "werewolf", "werewolves", 6),  # a unique beginning
        ("char new Иван clan human", "Иван", "human", "human", 8),
        # Or the book's name for it, as the picker shows it: one word, several, or a unique beginning.
        ("char new Мира clan Лесанг", "Мира", "vampire", "lesang", 8),
        ("char new Мира clan Бель Морт", "Мира", "vampire", "bellemort", 7),
        ("char new Анна Мария clan Le sang royal", "Анна Мария", "vampire", "lesang", 8),
        ("char new Мира clan драг", "Мира", "vampire", "dragazhar", 5),
        # As typed before: the clan after the name, in Russian, English or the book's Latin.
        ("char new Мира Лесанг", "Мира", "vampire", "lesang", 8),
        ("char new Maxina dragazhar", "Maxina", "vampire", "dragazhar", 5),
        ("char new Флавиус Le sang royal", "Флавиус", "vampire", "lesang", 8),
        ("char new Ivan human", "Ivan", "human", "human", 8),
        ("char new Смертный человек", "Смертный", "human", "human", 8),
        ('char new "Анна Мария" Драгазар', "Анна Мария", "vampire", "dragazhar", 5),
        # A quoted name is the name, even when its last word is a clan's.
        ('char new "Mira Human"', "Mira Human", "vampire", None, 8),
        ("char new Мира", "Мира", "vampire", None, 8),
    ],
)
async def test_char_new_reads_the_clan_typed_either_way(
    nw: Chat, line: str, name: str, kind: str, clan: str | None, humanity: int
) -> None:
    reply = await nw.one(line, as_="eva")
    assert reply.error is None, reply.text
    assert reply.result is not None
    sheet = reply.result["sheet"]
    assert (reply.result["name"], sheet["kind"], sheet["clan"], sheet["humanity"]) == (
        name,
        kind,
        clan,
        humanity,
    )


@pytest.mark.parametrize(
    ("line", "start"),
    [
        # Бруха is no clan of this book (nor before): the book's own refusal, with its clans.
        ("char new Мира Бруха", "Клана «Бруха» в книге нет. Кланы: Асванг, Бель Морт,"),
        # After ``clan`` a clan: the core's one line in Russian, naming the choices as the book does.
        ("char new Мира clan Бруха", "char new: параметр «клан» может быть только Асванг, Бель Морт,"),
        ("char new Мира clan", "char new: не указан параметр «клан»"),
        ("char new clan lesang", "char new: не указан параметр «имя»"),
    ],
)
async def test_a_clan_that_is_not_the_book_s_is_refused_and_nothing_is_made(
    nw: Chat, line: str, start: str
) -> None:
    reply = await nw.one(line, as_="eva")
    assert reply.error is not None and reply.text.startswith(start), reply.text
    assert await rows(nw, Character) == []


async def test_the_console_completes_the_clan(nw: Chat) -> None:
    await nw.one("char new Мира", as_="olga")
    services = nw.services
    names = await load_names(
        services,
        visible_commands(services),
        Channel("console", "main"),
        Identity("console", "olga", "olga"),
        False,
    )

    def offered(text: str, names: Names) -> list[str]:
        return sorted(text[: len(text) + at] + completion for completion, at in completions(text, names))

    assert offered("char new Мира cl", names) == ["char new Мира clan"]
    assert offered("char new Мира clan l", names) == [
        "char new Мира clan lesang",
        "char new Мира clan lugaru",
    ]
    assert len(offered("char new Мира clan ", names)) == 12
    # The book's names complete too, once a letter is typed.
    assert offered("char new Мира clan Ле", names) == ["char new Мира clan Лесанг"]
    assert offered("char new Мира clan Бе", names) == ["char new Мира clan Бель Морт"]


# --- the commands that take nothing ----------------------------------------------------------------


async def test_commands_that_take_nothing_answer_their_line_and_refuse_words(nw: Chat) -> None:
    """``()``: the router binds nothing and the handler reads the line as before, so words after
    the command are refused in the book's words (``tug strat`` is a typo, not a look)."""
    assert (await nw.one("char new Максина dragazhar", as_="olga")).error is None
    nw.clock.advance(hours=24)  # a night of its own for ``wake``
    answers = {
        "tug": "Здесь нет противоборства",
        "tug roll": "Здесь нет противоборства",
        "tug stop": "Здесь нет противоборства",
        "wake": "Максина просыпается и теряет 1 BP",
        "boost end": "У персонажа Максина нет усиления кровью",
        "frenzy end": "Максина не в Безумии",
        "scene end": "Эпизод окончен",
        "* * *": "Эпизод окончен",
    }
    for line, start in answers.items():
        reply = await nw.one(line, as_="olga")
        assert reply.text.startswith(start), (line, reply.text)
    for line in answers:
        reply = await nw.one(f"{line} сейчас", as_="olga")
        assert reply.error is not None and reply.text.startswith("Пишите"), (line, reply.text)
