"""``char export`` and ``st import``: one character as a document of the vault export's format, moved
from one deployment to another through the router, and the refusals (nothing half-written)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import orjson
import pytest

from gateway.features.transfer.cli import read_file
from gateway.testing import Chat, start_chat


@pytest.fixture
async def other(tmp_path: Path) -> AsyncIterator[Chat]:
    """A second deployment, on a vault of its own."""
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}")
    yield chat
    await chat.stop()


async def test_a_player_exports_their_character_in_the_export_format(chat: Chat, tmp_path: Path) -> None:
    assert (await chat.one("char new Mira Vance", as_="mira")).error is None
    chat.dice.extend([7, 1, 10])
    rolled = await chat.one("roll 3", as_="mira")
    reply = await chat.one("char export", as_="mira")
    assert reply.error is None and reply.private and reply.result is not None
    document = reply.result["document"]
    assert orjson.loads(reply.text) == document
    assert (document["format"], document["version"]) == ("nightcap-gateway/features/characters", 2)
    [character] = document["characters"]
    assert (character["system"], character["name"], character["active"]) == ("nightcap", "Mira Vance", True)
    assert character["owner"]["identities"][0]["key"] == "console:mira"
    assert [r["public_id"] for r in character["rolls"]] == [rolled.result["id"]]
    assert character["rolls"][0]["dice"] == [7, 1, 10]
    # The CLI's importer reads it as one of its own files.
    path = tmp_path / "mira.json"
    path.write_text(reply.text)
    assert [c.name for c in read_file(path, chat.gateway.plugins.systems(), 512).characters] == ["Mira Vance"]
    by_name = await chat.one("char export Mira Vance --sheet", as_="mira")
    assert by_name.result is not None
    assert by_name.result["document"]["characters"][0]["rolls"] == []


async def test_a_character_moves_to_another_deployment(any_chat: Chat, other: Chat) -> None:
    """From either engine (the export's snapshot differs on SQLite and PostgreSQL) to SQLite, and
    back into the first (the import's writes)."""
    chat = any_chat
    assert (await chat.one("system dramatic", as_="st", st=True)).error is None
    assert (await chat.one("char new Ilse Brandt", as_="mira")).error is None
    chat.dice.extend([6, 1, 10])
    roll_id = (await chat.one("roll 3", as_="mira")).result["id"]
    document = (await chat.one("char export", as_="mira")).text
    assert (await other.one("system dramatic", as_="st", st=True)).error is None
    imported = await other.one(f"st import {document}", as_="st", st=True)
    assert imported.error is None, imported.text
    assert imported.text == "Imported Ilse Brandt (Dramatic Systems) with 1 roll of history."
    # The roll is verifiable there, and the character is the owner's (same identity) active one.
    assert (await other.one(f"verify {roll_id}", as_="olga")).error is None
    again = await other.one("char export", as_="mira")
    assert again.error is None and again.result is not None
    assert (
        again.result["document"]["characters"][0]["sheet"] == orjson.loads(document)["characters"][0]["sheet"]
    )
    # Once more: the name is taken there now, and nothing is written.
    refused = await other.one(f"st import {document}", as_="st", st=True)
    assert refused.error is not None
    assert refused.text.startswith("Nothing imported: characters[0] (Ilse Brandt): this vault already has")
    # Back home under another name: a new character there, with its own roll ids refused as clashes.
    renamed = orjson.loads(document)
    renamed["characters"][0].update(name="Ilse Two", rolls=[])
    back = await chat.one(f"st import {orjson.dumps(renamed).decode()}", as_="st", st=True)
    assert back.text == "Imported Ilse Two (Dramatic Systems) with 0 rolls of history."
    clash = orjson.loads(document)
    clash["characters"][0].update(name="Ilse Three")
    refused = await chat.one(f"st import {orjson.dumps(clash).decode()}", as_="st", st=True)
    assert (
        refused.text
        == f"Nothing imported: characters[0] (Ilse Three): roll #{roll_id} already in this vault's roll log"
    )


async def test_refusals(chat: Chat) -> None:
    assert (await chat.one("char new Mira Vance", as_="mira")).error is None
    assert (await chat.one("char new Olga Roth", as_="olga")).error is None
    theirs = await chat.one("char export Olga Roth", as_="mira")
    assert theirs.error == "forbidden"
    assert theirs.text == "Olga Roth is not your character: players export their own characters only."
    assert (await chat.one("char export Olga Roth", as_="st", st=True)).error is None
    assert (await chat.one("char export Nobody", as_="mira")).text == "No Nightcap character called Nobody."
    assert (await chat.one("char export", as_="nobody")).text == (
        "You have no active Nightcap character: write char export NAME."
    )
    document = (await chat.one("char export", as_="mira")).text
    player = await chat.one(f"st import {document}", as_="mira")
    assert player.error is not None and "Storyteller" in player.text
    assert (await chat.one("st import", as_="st", st=True)).text == (
        "st import: document is missing: the character's JSON document, as char export gives it."
        " Usage: st import DOCUMENT"
    )
    bad = await chat.one("st import {nope", as_="st", st=True)
    assert bad.text.startswith("Nothing imported: that is not a JSON document")
    two = orjson.loads(document)
    two["characters"].append(two["characters"][0])
    many = await chat.one(f"st import {orjson.dumps(two).decode()}", as_="st", st=True)
    assert many.text == "Nothing imported: the document holds 2 characters; st import takes one."
    newer = orjson.loads(document) | {"version": 99}
    refused = await chat.one(f"st import {orjson.dumps(newer).decode()}", as_="st", st=True)
    assert refused.text.startswith("Nothing imported: this file is format version 99")
    assert (await chat.one("st roster", as_="st", st=True)).result["characters"].__len__() == 2
