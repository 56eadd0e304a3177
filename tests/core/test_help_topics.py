"""``help`` by topic (issue 14): the index names the top-level commands and the topics with their
counts, ``help TOPIC [PAGE]`` lists a topic's commands with summaries a page at a time, each answer
within one IRC line, in English, Czech and Russian. Here every message says IRC's page size; where
none is given (console, web, Discord) a whole topic comes at once (issue 37)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from gateway.core.help_topics import PAGE_BYTES, group, pages
from gateway.core.spec import Command
from gateway.testing import Chat, start_chat
from tests.helpers.chat import play
from tests.nightcap.helpers import ok, refused

ST = {"as_": "ana", "st": True}


@pytest.fixture
async def chat(vault_url: str) -> AsyncIterator[Chat]:
    chat = await start_chat(vault_url)
    chat.page_bytes = PAGE_BYTES  # as the IRC adapter says
    yield chat
    await chat.stop()


async def test_index_lists_top_level_commands_and_topics_with_counts(chat: Chat) -> None:
    player = await ok(chat, "help")
    assert player.private and player.text.startswith("Nightcap commands: ")
    topics = (
        r"; topics: char \(\d+\), extended \(\d+\), init \(8\), macro \(4\), power \(\d+\), team \(4\)"
        r"(, \w+ \(\d+\))* \(help TOPIC"  # and any topic after team (web)
    )
    assert re.search(topics, player.text)
    assert " st " not in player.text and "st (" not in player.text  # Storyteller commands: for Storytellers
    assert "roll, " in player.text and "char new" not in player.text
    assert len(player.text.encode()) <= PAGE_BYTES
    storyteller = await ok(chat, "help", **ST)
    assert re.search(r"\), st \(\d+\), team \(4\)", storyteller.text)


async def test_a_topic_pages_its_commands_with_summaries(chat: Chat) -> None:
    char = await ok(chat, "help char")
    assert char.text.startswith("char commands (10): char: ")
    assert "; char new: " in char.text
    assert char.result is not None and char.result["topic"] == "char"
    st = [await ok(chat, "help st", **ST)]
    count = st[0].result["pages"]  # type: ignore[index]
    assert count >= 2
    assert st[0].text.endswith(f" Page 1 of {count}; next: help st 2")
    for page in range(2, count + 1):
        st.append(await ok(chat, f"help st {page}", **ST))
    assert st[-1].text.endswith(f" Page {count} of {count}.")
    assert all(len(r.text.encode()) <= PAGE_BYTES for r in st)
    listed = [name for r in st for name in r.result["commands"]][:18]  # type: ignore[index]
    assert "st approve" in listed and "st roll" in listed
    assert await refused(chat, "help st 9", **ST) == f"help st: {count} pages in all."
    # A command of a topic is still explained on its own.
    assert (await ok(chat, "help char new")).text.startswith("char new: ")


async def test_topics_in_czech_and_russian(chat: Chat) -> None:
    await ok(chat, "lang cs")
    text = (await ok(chat, "help")).text
    assert (
        "; témata: char (10), extended (" in text and " vypíše help PŘÍKAZ." in text
    )  # then the page line, if paged
    assert (await ok(chat, "help char")).text.startswith("Příkazy tématu char (10): char: ")
    await ok(chat, "lang cs", "ana", st=True)
    assert (await refused(chat, "help st 9", **ST)).startswith("help st: celkem ")
    await ok(chat, "lang ru", "bob")
    text = (await ok(chat, "help", "bob")).text
    assert text.startswith("Команды (Nightcap): ") and "; темы: char (10)" in text
    page = (await ok(chat, "help char", "bob")).text
    assert page.startswith("Команды темы char (10): ")
    assert len(page.encode()) <= PAGE_BYTES


def test_grouping_and_paging_are_pure() -> None:
    async def handler(*_: object) -> None:
        return None

    commands = [Command(n, handler, "x") for n in ("roll", "char", "char new", "st roll", "story end")]  # type: ignore[arg-type]
    groups = group(commands)
    assert groups.top == ["roll", "st roll", "story end"] and list(groups.topics) == ["char"]
    cut = pages([f"entry {i}" for i in range(40)], lambda body, p, n: f"[{body}] {p}/{n}", budget=60)
    assert (
        len(cut) > 1 and all(len(page) <= 60 for page in cut) and cut[-1].endswith(f"{len(cut)}/{len(cut)}")
    )


async def test_every_index_and_topic_page_fits_one_irc_line_in_every_language(chat: Chat) -> None:
    """Nightwanderers has the most top-level commands: its index takes pages, ``help 2`` and on."""
    await play(chat, "nightwanderers", as_="ana")
    for locale in ("en", "cs", "ru"):
        for who, extra in (("mira", {}), ("ana", {"st": True})):
            await ok(chat, f"lang {locale}", who, **extra)
            first = await ok(chat, "help", who, **extra)
            assert first.result is not None
            count = first.result["pages"]
            seen = [first] + [await ok(chat, f"help {n}", who, **extra) for n in range(2, count + 1)]
            for topic in ("init", "tug"):
                seen.append(await ok(chat, f"help {topic}", who, **extra))
            assert all(len(r.text.encode()) <= PAGE_BYTES for r in seen), [r.text for r in seen]
    await ok(chat, "lang en", "ana", st=True)
    index = await ok(chat, "help", "ana", st=True)
    assert index.result is not None and index.result["pages"] == 2
    assert index.text.endswith(" Page 1 of 2; next: help 2")
    assert (await ok(chat, "help 2", "ana", st=True)).text.endswith(" Page 2 of 2.")
    assert await refused(chat, "help 3", "ana", st=True) == "help: 2 pages in all."


async def test_a_whole_topic_at_once_where_lines_are_long(chat: Chat) -> None:
    chat.page_bytes = None  # the console, the web, Discord
    st = await ok(chat, "help st", **ST)
    assert st.result is not None and st.result["pages"] == 1
    assert "Page" not in st.text and "st approve: " in st.text and "st roll: " in st.text
    assert len(st.text.encode()) > PAGE_BYTES


async def test_hints_name_the_prefix_the_reader_types(chat: Chat) -> None:
    index = await ok(chat, "!help", prefixed=True, channel="room")
    assert "(!help TOPIC lists one). Type !help COMMAND for one." in index.text
    st = await ok(chat, "!help st", prefixed=True, channel="room", **ST)
    assert st.text.endswith("; next: !help st 2")
    assert "Type help COMMAND" in (await ok(chat, "help")).text  # no prefix where none is typed


async def test_help_char_set_lists_the_fields_and_their_limit(chat: Chat) -> None:
    text = (await ok(chat, "help char set")).text
    assert "origin, subgroup, aptitude, advantage, weakness" in text and "up to 300 characters" in text
