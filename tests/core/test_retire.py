"""``char retire NAME`` / ``st retire NAME`` (issue 19: "there is no way to delete (or retire) a
character, and names are unique across the whole vault"). A retired character leaves every list and
its owner's active slot, its name is free again in its system, and its rolls, log and audit rows stay.

The Nightcap book: "Sheets — Opens the character roster held in the Vault"; "Every sheet in the game
lives in one Vault object"; "Every player roll ... is broadcast silently to a hidden ST channel with
the full dice breakdown" (the history a retired character keeps)."""

from __future__ import annotations

from sqlmodel import col, select

from gateway.features.characters import RETIRED_MARK, name_key
from gateway.testing import Chat
from gateway.vault.models import Audit, Character, Person, RollLog
from tests.helpers.chat import play
from tests.nightcap.helpers import build, ok, refused

ST = {"as_": "ana", "st": True}


async def rows(chat: Chat, name: str) -> list[Character]:
    async with chat.services.vault.transaction() as session:
        found = await session.exec(
            select(Character).where(col(Character.name) == name).order_by(col(Character.id))
        )
        return list(found.all())


async def test_the_owner_retires_a_character_and_its_history_stays(chat: Chat) -> None:
    await build(chat)
    chat.dice.extend([9, 5, 10])
    rolled = await ok(chat, "roll physical")
    assert rolled.result is not None
    done = await ok(chat, "char retire Mira")
    assert done.private and done.text == (
        "Mira is retired: gone from the character lists and from play, its rolls and log kept;"
        " the name is free for a new character."
    )
    [old] = await rows(chat, "Mira")
    assert old.retired_at is not None and old.status == "approved"
    assert old.name_key == f"mira{RETIRED_MARK}{old.id}" and name_key(old.name_key) != "mira"
    # Gone from play and from every list.
    assert (
        await ok(chat, "char list")
    ).text == "You have no Nightcap characters yet: char new NAME makes one."
    assert (await refused(chat, "roll physical")).startswith("Physical is a trait, and you have no active")
    assert "Mira" not in (await ok(chat, "st roster", **ST)).text
    assert "Mira" not in (await ok(chat, "st search mir", **ST)).text
    assert (await refused(chat, "st show Mira", **ST)).startswith("No Nightcap character called Mira")
    # The history stays: the roll, the audit row, the Storyteller log entry.
    async with chat.services.vault.transaction() as session:
        kept = (await session.exec(select(RollLog).where(col(RollLog.character_id) == old.id))).all()
        audit = (await session.exec(select(Audit).where(col(Audit.action) == "char.retire"))).one()
        person = (await session.exec(select(Person).where(col(Person.id) == old.owner_id))).one()
    assert [r.public_id for r in kept] == [str(rolled.result["id"])]
    assert (audit.character_id, audit.old_value, audit.new_value) == (old.id, "approved", "retired")
    assert person.active_character_id is None
    verified = await ok(chat, f"verify {rolled.result['id']}", "zed")
    assert verified.result is not None and verified.result["kind"] == "verify"
    assert "Mira" in verified.text, verified.text
    assert any(line.kind == "retire" and "retired Mira" in line.text for line in await chat.stlog())
    # The name is free: a new Mira, another row, the old one untouched.
    await ok(chat, "char new Mira")
    (new,) = [c for c in await rows(chat, "Mira") if c.retired_at is None]
    assert new.id != old.id and new.name_key == "mira"
    assert await refused(chat, "char new mira", "zed") == "There is already a Nightcap character called mira."


async def test_only_the_owner_or_a_storyteller_retires(chat: Chat) -> None:
    await build(chat, "Bob", "bob")
    await ok(chat, "char new Mira")
    assert await refused(chat, "char retire Bob") == (
        "You have no Nightcap character called Bob: char list shows yours."
    )
    assert await refused(chat, "char retire") == (
        "char retire: name is missing: the character to retire. Usage: char retire NAME"
    )
    assert (await chat.one("st retire Bob", "mira")).error == "forbidden"
    done = await ok(chat, "st retire Bob", **ST)
    assert not done.private and done.text.startswith("Bob is retired")
    assert "no active character" in await refused(chat, "roll physical", "bob")
    assert await refused(chat, "st retire Bob", **ST) == "No Nightcap character called Bob is in play."
    async with chat.services.vault.transaction() as session:
        audit = (await session.exec(select(Audit).where(col(Audit.action) == "st.retire"))).one()
    assert audit.new_value == "retired"


async def test_names_are_unique_per_system_among_characters_in_play(chat: Chat) -> None:
    """Storyteller commands name characters within the channel's system; a retired name is free."""
    await ok(chat, "char new Mira")
    await play(chat, "pravidla", as_="ana")
    assert (await chat.one("char new Mira", "mira")).error is None  # another system: its own names
    retired = await chat.one("char retire Mira", "mira")
    assert retired.text == (
        "Postava Mira je vyřazena ze hry: v seznamech postav už není, její hody a záznamy zůstávají"
        " a jméno je volné pro novou postavu."
    )
    assert (await chat.one("char new Mira", "zed")).error is None
    await play(chat, "nightcap", as_="ana")
    assert (await refused(chat, "char new Mira", "zed")).startswith("There is already")  # still in play


async def test_night_wanderers_answer_in_russian(chat: Chat) -> None:
    await play(chat, "nightwanderers", as_="ana")
    assert (await chat.one("char new Лена", "lena")).error is None
    assert (await chat.one("char retire Вера", "lena")).text == (
        "У вас нет персонажа с именем Вера (Ночные скитальцы): ваших персонажей покажет char list."
    )
    done = await chat.one("st retire Лена", **ST)
    assert done.text.startswith("Персонаж Лена выведен из игры")
