"""``char bio``: a character's biography, for every rule system (issue 34: "an optional portrait ...
and biography"). Prose in paragraphs, length-limited, the owner's to change after approval too
(flavour, not rules), audited; a Storyteller's history shows what it was."""

from __future__ import annotations

from sqlmodel import col, select

from gateway.features.profiles import BIO_MAX, paragraphs, profile
from gateway.testing import Chat
from gateway.vault.models import Audit
from tests.nightcap.helpers import build, ok, refused


async def test_a_biography_is_written_shown_kept_in_paragraphs_and_cleared(chat: Chat) -> None:
    await build(chat)  # approved: a biography is still the owner's to write
    assert (await ok(chat, "char bio")).text == (
        "Mira has no biography yet: char bio TEXT writes one (// between paragraphs)."
    )
    saved = await ok(chat, 'char bio Born under  the "old bridge". // She keeps # her word. Always.')
    assert saved.private and saved.text == "Mira's biography is saved (57 characters)."
    text = "Born under the old bridge.\n\nShe keeps # her word. Always."
    assert (await ok(chat, "char bio")).text == f"Mira's biography:\n{text}"
    character_id = await _mira(chat)
    found = await profile(chat.services.vault, character_id)
    assert found.biography == text and found.portrait_tag is None
    assert paragraphs(found.biography) == ["Born under the old bridge.", "She keeps # her word. Always."]
    assert (await ok(chat, "char bio --clear")).text == "Mira's biography is removed."
    assert (await profile(chat.services.vault, character_id)).biography == ""
    async with chat.services.vault.transaction() as session:
        audit = (await session.exec(select(Audit).where(col(Audit.action) == "char.bio"))).all()
    assert [(a.old_value, a.new_value) for a in audit] == [(None, text), (text, None)]


async def test_a_biography_too_long_is_refused_in_one_line_and_nothing_is_kept(chat: Chat) -> None:
    await build(chat)
    long = "word " * (BIO_MAX // 5 + 1)
    assert await refused(chat, f"char bio {long}") == (
        f"A biography is at most {BIO_MAX} characters; this one has {len(long.strip())}."
    )
    assert (await profile(chat.services.vault, await _mira(chat))).biography == ""


async def test_the_biography_answers_in_czech_and_russian(chat: Chat) -> None:
    await build(chat)
    await ok(chat, "lang cs")
    assert (await ok(chat, "char bio Tichá.")).text == "Životopis postavy Mira je uložen (6 znaků)."
    await ok(chat, "lang ru")
    assert (await ok(chat, "char bio --clear")).text == "Биография персонажа Mira удалена."
    assert (await ok(chat, "char bio Да.")).text == "Биография персонажа Mira сохранена (3 символа)."


async def test_without_an_active_character_the_biography_is_refused(chat: Chat) -> None:
    assert (await refused(chat, "char bio Hello")).startswith("You have no active character here")


async def _mira(chat: Chat) -> int:
    async with chat.services.vault.transaction() as session:
        from gateway.features.characters import find_character

        found = await find_character(session, "nightcap", "Mira")
    assert found is not None and found.id is not None
    return found.id
