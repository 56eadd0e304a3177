"""The Discord sheet embed draws any rule system's SheetSummary: a Decanter and a Night Wanderers
character, made through the real commands, render within Discord's limits with their own traits,
pools and powers."""

from __future__ import annotations

from typing import Any

from adapters.discord import render
from gateway.features.characters import find_character
from gateway.testing import Chat
from tests.discord.fake_discord import message_problems
from tests.helpers.chat import playing


async def ok(chat: Chat, text: str, as_: str = "alice", st: bool = False) -> None:
    reply = await chat.one(text, as_=as_, st=st)
    assert reply.error is None, reply.text


async def embed_of(chat: Chat, system: str, name: str, owner: str) -> dict[str, Any]:
    """The embed of a ``sheet`` outbox row for the character, as the Discord adapter posts it."""
    async with chat.services.vault.transaction() as session:
        character = await find_character(session, system, name)
        assert character is not None
        summary = await chat.services.plugins.load_summary(session, character)
    payload = {"kind": "sheet", "summary": summary.as_json(), "owner": owner, "character_id": character.id}
    body = render.outbox_message(payload)
    assert message_problems(body) == []
    [embed] = body["embeds"]
    return embed


async def test_a_decanter_sheet_renders(vault_url: str) -> None:
    async with playing(vault_url, "decanter") as dec:
        await ok(dec, "char new Ana")
        for line in ("set wits 3", "set brawl 2", "set specialties Brawl (dirty)"):
            await ok(dec, line)
        await ok(dec, "st set Ana sp 2", as_="gm", st=True)
        await ok(dec, "cond add Shaken scene")
        dec.dice.extend([10, 7, 3, 1, 6])
        await ok(dec, "roll wits+brawl dc 2")
        embed = await embed_of(dec, "decanter", "Ana", "Alice")
    assert embed["title"] == "Ana"
    assert embed["description"] == "Creation · played by Alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields["Attributes"].startswith("Strength **1** · Dexterity **1**")
    assert "Wits **3**" in fields["Attributes"]
    assert fields["Skills"] == "Brawl **2**"
    assert fields["Story Points"] == "2/10"
    assert fields["Specialties"] == "Brawl (dirty)"
    assert fields["Conditions"] == "Shaken"


async def test_a_night_wanderers_sheet_renders_in_the_books_russian(vault_url: str) -> None:
    async with playing(vault_url, "nightwanderers") as nw:
        await ok(nw, "char new Maxina dragazhar", as_="olga")
        for field, value in (("persuasion", 3), ("celerity", 2), ("fortitude", "yes")):
            await ok(nw, f"st set Maxina {field} {value}", as_="gm", st=True)
        await ok(nw, "damage 5 Maxina", as_="gm", st=True)
        nw.dice.extend([6, 6, 2])
        await ok(nw, "roll persuasion", as_="olga")
        embed = await embed_of(nw, "nightwanderers", "Maxina", "Olga")
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert (fields["Вид"], fields["Клан"], fields["Гуманность"]) == ("вампир", "Драгазар", "5")
    # The book's two headings, Атрибуты and Трюки, as the declared sheet has them.
    assert fields["Атрибуты"].startswith("Сила **1**") and "Убеждение **3**" in fields["Трюки"]
    assert fields["Здоровье"] == "20/25" and fields["Запас Крови"] == "10/10"
    assert fields["Powers"] == "• **Продвинутая Быстрота** — 2\n• **Стойкость**"


def test_a_sheet_row_queued_before_summaries_posts_its_text() -> None:
    """A row an older version queued (no ``summary``) is not guessed at: its text goes out."""
    body = render.outbox_message(
        {"kind": "sheet", "text": "Mira (Nightcap, approved)", "sheet": {"name": "M"}}
    )
    assert body["content"] == "Mira (Nightcap, approved)"
    assert "embeds" not in body
