"""A character's biography and portrait travel with it (format version 2, ``profile``): ``char export``
and ``gateway export characters`` write them, ``st import`` and ``gateway import characters`` check
them as ``char bio`` and the web's upload do and write them with audit rows; a version 1 file reads
as before; a bad biography or portrait refuses the whole import in one line, in the reader's
language in chat, and nothing is written."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import io
import json
import random
from argparse import Namespace
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image
from sqlmodel import col, select

from gateway.features import profiles
from gateway.features.characters import find_character
from gateway.features.transfer import profile
from gateway.features.transfer.cli import run_cli
from gateway.features.transfer.format import ExportDoc, load
from gateway.testing import Chat, make_settings, start_chat
from gateway.vault.models import Audit, Character, CharacterProfile
from tests.core import test_transfer
from tests.core.test_transfer import counts, export, import_

target_url = test_transfer.target_url  # the fixture: a second fresh vault on the same engine

BIO = "Raised above the night market.\n\nKeeps a ledger of every favour owed & <b>never</b> forgets."
PIXEL = "console:mira"


def picture(kind: str = "PNG", size: tuple[int, int] = (3, 2), noise: int = 0) -> bytes:
    """A picture; with ``noise`` bytes of randomness in it, one that does not compress away."""
    image = Image.new("RGB", size, (120, 30, 40))
    if noise:
        side = int(noise**0.5)
        image = Image.frombytes("L", (side, side), random.Random(noise).randbytes(side * side))
    out = io.BytesIO()
    image.save(out, kind)
    return out.getvalue()


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


async def character_id(chat: Chat, name: str = "Mira Vance") -> int:
    async with chat.services.vault.transaction() as session:
        found = await find_character(session, "nightcap", name)
    assert found is not None and found.id is not None
    return found.id


async def with_profile(chat: Chat, data: bytes | None, kind: str = "image/png", bio: str = BIO) -> int:
    """Mira Vance, her biography written in chat and ``data`` uploaded as her portrait."""
    assert (await chat.one("char new Mira Vance", as_="mira")).error is None
    typed = profiles.typed(bio)
    assert (await chat.one(f"char bio {typed}", as_="mira")).error is None
    mira = await character_id(chat)
    if data is not None:
        async with chat.services.vault.transaction() as session:
            character = await session.get(Character, mira)
            assert character is not None
            by = profiles.By(character.owner_id, PIXEL)
            await profiles.set_portrait(session, mira, data, kind, chat.clock(), by)
    return mira


async def kept(chat: Chat) -> list[tuple[str, str, bytes | None, str, str]]:
    """Every profile row: (character, biography, portrait, its type, its tag)."""
    async with chat.services.vault.transaction() as session:
        rows = await session.exec(
            select(Character.name, CharacterProfile).join(
                CharacterProfile, col(CharacterProfile.character_id) == col(Character.id)
            )
        )
        return [(n, p.biography, p.portrait, p.portrait_type, p.portrait_hash) for n, p in rows.all()]


async def imports_audited(chat: Chat) -> list[tuple[str | None, str | None]]:
    async with chat.services.vault.transaction() as session:
        rows = await session.exec(
            select(Audit).where(col(Audit.action) == "character.import").order_by(col(Audit.id))
        )
        return [(a.field_name, a.new_value) for a in rows.all()]


@pytest.fixture
async def other(tmp_path: Path) -> AsyncIterator[Chat]:
    """A second deployment, on a vault of its own."""
    chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'other.db'}")
    yield chat
    await chat.stop()


# ---------------------------------------------------------------- round trips


async def test_the_cli_moves_a_biography_and_a_byte_identical_portrait(
    vault_url: str, target_url: str, tmp_path: Path
) -> None:
    """SQLite to SQLite, PostgreSQL to PostgreSQL: a portrait of some size, not a toy pixel."""
    data = picture("WEBP", noise=160_000)  # 400 × 400
    assert 40_000 < len(data) < 512 * 1024
    source = await start_chat(vault_url)
    try:
        await with_profile(source, data, "image/webp")
        path = tmp_path / "out.json"
        assert await asyncio.to_thread(export, vault_url, path) == 0
    finally:
        await source.stop()
    [mira] = json.loads(path.read_text())["characters"]
    assert list(mira)[9:12] == ["pools", "profile", "rolls"]  # in the head, before the history
    assert mira["profile"] == {"biography": BIO, "portrait": {"media_type": "image/webp", "data": b64(data)}}

    assert await asyncio.to_thread(import_, target_url, path) == 0
    target = await start_chat(target_url)
    try:
        tag = hashlib.sha256(data).hexdigest()
        assert await kept(target) == [("Mira Vance", BIO, data, "image/webp", tag)]
        found = await profiles.portrait(target.services.vault, await character_id(target))
        assert found == profiles.Portrait(data, "image/webp", tag)
        assert (await target.one("char bio", as_="mira")).text == f"Mira Vance's biography:\n{BIO}"
        note = "imported from " + json.loads(path.read_text())["exported_at"]
        assert await imports_audited(target) == [(None, note), ("biography", BIO), ("portrait", tag[:12])]
        async with target.services.vault.transaction() as session:
            moved = await session.exec(select(Audit.action, Audit.field_name).order_by(col(Audit.id)))
            history = moved.all()
        # What happened there came along: the bio typed, the portrait uploaded.
        assert ("char.bio", "biography") in history and ("web.portrait", "portrait") in history
        again = tmp_path / "again.json"
        assert await asyncio.to_thread(export, target_url, again) == 0
        assert json.loads(again.read_text())["characters"][0]["profile"] == mira["profile"]
    finally:
        await target.stop()


async def test_chat_moves_them_and_char_export_sheet_leaves_the_portrait_behind(
    any_chat: Chat, other: Chat
) -> None:
    chat = any_chat
    data = picture("PNG")  # a few pixels: the whole document fits a command line
    mira = await with_profile(chat, data)
    reply = await chat.one("char export", as_="mira")
    document = reply.result["document"] if reply.result else {}
    assert document["characters"][0]["profile"]["portrait"] == {"media_type": "image/png", "data": b64(data)}
    imported = await other.one(f"st import {reply.text}", as_="st", st=True)
    assert imported.text == "Imported Mira Vance (Nightcap) with 0 rolls of history.", imported.text
    tag = hashlib.sha256(data).hexdigest()
    assert await kept(other) == [("Mira Vance", BIO, data, "image/png", tag)]
    assert (await imports_audited(other))[1:] == [("biography", BIO), ("portrait", tag[:12])]

    sheet = await chat.one("char export --sheet", as_="mira")
    [entry] = orjson.loads(sheet.text)["characters"]
    assert entry["profile"] == {"biography": BIO, "portrait": None}
    assert list(entry)[10:] == ["profile", "rolls", "stlog", "audit"]
    entry["name"] = "Mira Two"
    renamed = orjson.dumps({**orjson.loads(sheet.text), "characters": [entry]}).decode()
    assert (await other.one(f"st import {renamed}", as_="st", st=True)).error is None
    assert [(n, b, p) for n, b, p, _, _ in await kept(other)][1] == ("Mira Two", BIO, None)
    # Neither: no profile key at all, in either form.
    assert (await chat.one("char bio --clear", as_="mira")).error is None
    assert await profiles.remove_portrait(chat.services.vault, mira, chat.clock())
    for line in ("char export", "char export --sheet"):
        exported = await chat.one(line, as_="mira")
        assert exported.result is not None
        assert "profile" not in exported.result["document"]["characters"][0]


async def test_a_portrait_without_a_biography_and_a_biography_without_a_portrait(
    chat: Chat, other: Chat
) -> None:
    data = picture("GIF")
    await with_profile(chat, data, "image/gif", bio="")
    assert (await chat.one("char new Olga", as_="olga")).error is None
    assert (await chat.one("char bio Quiet.", as_="olga")).error is None
    for name, who in (("Mira Vance", "mira"), ("Olga", "olga")):
        document = (await chat.one(f"char export {name}", as_=who)).text
        assert (await other.one(f"st import {document}", as_="st", st=True)).error is None
    tag = hashlib.sha256(data).hexdigest()
    assert sorted(await kept(other)) == [
        ("Mira Vance", "", data, "image/gif", tag),
        ("Olga", "Quiet.", None, "", ""),
    ]
    assert (await imports_audited(other))[1::2] == [("portrait", tag[:12]), ("biography", "Quiet.")]


# ---------------------------------------------------------------- an old file


async def test_a_version_1_file_imports_as_before_and_may_not_carry_a_profile(
    chat: Chat, other: Chat, tmp_path: Path
) -> None:
    assert (await chat.one("char new Mira Vance", as_="mira")).error is None
    document = orjson.loads((await chat.one("char export", as_="mira")).text)
    assert "profile" not in document["characters"][0]  # the shape of version 1, but for the number
    old = orjson.dumps(document | {"version": 1}).decode()
    assert (await other.one(f"st import {old}", as_="st", st=True)).error is None
    assert await kept(other) == []
    path = tmp_path / "old.json"
    path.write_text(old.replace("Mira Vance", "Mira Old"))
    assert await asyncio.to_thread(import_, f"sqlite+aiosqlite:///{tmp_path / 'other.db'}", path) == 0

    document["characters"][0].update(name="Mira Three", profile={"biography": "Hi.", "portrait": None})
    mixed = orjson.dumps(document | {"version": 1}).decode()
    refused = await other.one(f"st import {mixed}", as_="st", st=True)
    assert refused.text == (
        "Nothing imported: characters[0] (Mira Three).profile: a version 2 key in a version 1 file"
    )
    assert await kept(other) == []


# ---------------------------------------------------------------- hostile files


def spoil(document: dict[str, Any], **profile_: Any) -> str:
    entry = document["characters"][0]
    entry["profile"] = {**entry["profile"], **profile_}
    return orjson.dumps(document).decode()


def portrait_of(data: bytes | str, kind: str = "image/png") -> dict[str, str]:
    return {"media_type": kind, "data": data if isinstance(data, str) else b64(data)}


SVG = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>"
WIDE = picture("GIF", (5000, 2))

# What a command line can carry: (locale, the profile's spoilt keys, the refusal after "Nothing imported: ").
IN_CHAT: list[tuple[str, dict[str, Any], str]] = [
    ("en", {"portrait": portrait_of(SVG)}, "the portrait is not a PNG, JPEG, WebP or GIF picture"),
    ("cs", {"portrait": portrait_of(SVG)}, "portrét není obrázek PNG, JPEG, WebP ani GIF"),
    ("ru", {"portrait": portrait_of(SVG)}, "портрет не является изображением PNG, JPEG, WebP или GIF"),
    (
        "en",
        {"portrait": portrait_of(WIDE, "image/gif")},
        "the portrait is 5000 × 2 pixels: a portrait is at most 4096 × 4096",
    ),
    (
        "cs",
        {"portrait": portrait_of(WIDE, "image/gif")},
        "portrét má 5000 × 2 pixelů: může mít nejvýše 4096 × 4096",
    ),
    (
        "ru",
        {"portrait": portrait_of(WIDE, "image/gif")},
        "портрет размером 5000 × 2 пикселей, а может быть не больше 4096 × 4096",
    ),
    ("en", {"portrait": portrait_of("iVBORw0KGgo!!")}, "the portrait's data is not base64"),
    ("cs", {"portrait": portrait_of("iVBORw0KGgo")}, "data portrétu nejsou v kódování base64"),  # padding
    ("ru", {"portrait": portrait_of("aGk=\n")}, "данные портрета не закодированы в base64"),
    (
        "en",
        {"portrait": portrait_of(picture("JPEG"), "image/png")},
        "the portrait is image/jpeg, not image/png as the document says",
    ),
    (
        "cs",
        {"portrait": portrait_of(picture("WEBP"), "image/gif")},
        "portrét je ve skutečnosti image/webp, ne image/gif, jak uvádí dokument",
    ),
    (
        "ru",
        {"portrait": portrait_of(picture("PNG"), "image/jpeg")},
        "портрет на самом деле image/png, а не image/jpeg, как указано в документе",
    ),
    ("en", {"biography": "Red \x1b[31mtext"}, "the biography has control or unassigned characters in it"),
    ("cs", {"biography": "Skrytý\x0btext"}, "životopis obsahuje řídicí nebo nepřiřazené znaky"),
    ("ru", {"biography": "Звонок\x07"}, "в биографии есть управляющие или неназначенные символы"),
]
WORDS = {"en": "Nothing imported: ", "cs": "Nic nebylo importováno: ", "ru": "Ничего не импортировано: "}


async def test_a_bad_biography_or_portrait_is_refused_in_the_reader_s_language_and_nothing_is_written(
    chat: Chat, other: Chat
) -> None:
    await with_profile(chat, None, bio="Short.")
    document = (await chat.one("char export --sheet", as_="mira")).text
    for locale, spoilt, expected in IN_CHAT:
        assert (await other.one(f"lang {locale}", as_="st", st=True)).error is None
        bad = spoil(orjson.loads(document), **spoilt)
        assert len(f"st import {bad}") <= 2000  # it reaches the check, not the line's limit
        refused = await other.one(f"st import {bad}", as_="st", st=True)
        assert (refused.error, refused.text) == ("invalid", WORDS[locale] + expected), spoilt
    assert await kept(other) == [] and await imports_audited(other) == []
    assert (await other.one("st roster", as_="st", st=True)).result["characters"] == []


def cli_refusal(capsys: pytest.CaptureFixture[str], url: str, path: Path, kib: int = 16) -> list[str]:
    """``gateway import characters`` with ``[web] portrait_kib = kib``: refused with exit 2 and
    nothing written (a profile row is written only with a new character); its lines."""
    before = asyncio.run(counts(url))
    args = Namespace(verb="import", file=str(path))
    assert run_cli(args, make_settings(url, web={"portrait_kib": kib})) == 2
    assert asyncio.run(counts(url)) == before
    return capsys.readouterr().err.splitlines()


NOISE = picture("PNG", noise=40_000)  # 40 KB that PNG cannot squeeze


# Each: the profile's spoilt keys, and the line ``gateway import characters`` refuses with.
FROM_FILE: list[tuple[dict[str, Any], str]] = [
    ({"biography": "word " * 300 + "end"}, "the biography has 1503 characters; a biography is at most 1500"),
    ({"portrait": portrait_of(NOISE)}, "the portrait is too large: a portrait is at most 16 KiB here"),
    ({"portrait": portrait_of("A" * 22_000)}, "the portrait is too large: a portrait is at most 16 KiB here"),
    ({"biography": "Hidden\u202etext"}, "the biography has control or unassigned characters in it"),
    ({"portrait": portrait_of(SVG)}, "the portrait is not a PNG, JPEG, WebP or GIF picture"),
    ({"portrait": portrait_of(b"")}, "the portrait is not a PNG, JPEG, WebP or GIF picture"),
    ({"portrait": portrait_of(picture("PNG")[:30])}, "the portrait is not a PNG, JPEG, WebP or GIF picture"),
    (
        {"portrait": portrait_of(picture("BMP"), "image/png")},
        "the portrait is not a PNG, JPEG, WebP or GIF picture",
    ),
    (
        {"portrait": portrait_of(WIDE, "image/gif")},
        "the portrait is 5000 × 2 pixels: a portrait is at most 4096 × 4096",
    ),
]
# Wrong types and shapes: the format's own checks, naming the place.
MALFORMED: list[tuple[dict[str, Any], str]] = [
    ({"biography": 5}, ".profile.biography: Input should be a valid string"),
    ({"biography": None}, ".profile.biography: Input should be a valid string"),
    ({"biography": "a\x00b"}, ".profile.biography: Value error, text with a NUL character cannot be stored"),
    (
        {"portrait": "iVBORw0KGgo="},
        ".profile.portrait: Input should be a valid dictionary or instance of PortraitDoc",
    ),
    (
        {"portrait": {"media_type": "image/svg+xml", "data": b64(SVG)}},
        ".profile.portrait.media_type: Input should be",
    ),
    (
        {"portrait": {"media_type": "image/png", "data": [1, 2]}},
        ".profile.portrait.data: Input should be a valid string",
    ),
    ({"portrait": {"media_type": "image/png"}}, ".profile.portrait.data: Field required"),
    ({"mood": "grim"}, ".profile.mood: Extra inputs are not permitted"),
]


def test_a_file_with_a_bad_biography_or_portrait_is_refused_in_one_line(
    target_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async def mira() -> dict[str, Any]:
        chat = await start_chat(f"sqlite+aiosqlite:///{tmp_path / 'source.db'}")
        try:
            await with_profile(chat, picture("PNG"))
            reply = await chat.one("char export", as_="mira")
            assert reply.result is not None
            return dict(reply.result["document"])
        finally:
            await chat.stop()

    document = asyncio.run(mira())
    path = tmp_path / "bad.json"
    for spoilt, expected in FROM_FILE:
        path.write_text(spoil(json.loads(json.dumps(document)), **spoilt))
        assert cli_refusal(capsys, target_url, path) == [f"characters[0] (Mira Vance): {expected}"], spoilt
    for spoilt, expected in MALFORMED:
        path.write_text(spoil(json.loads(json.dumps(document)), **spoilt))
        [line] = cli_refusal(capsys, target_url, path)
        assert line.startswith(f"characters[0] (Mira Vance){expected}"), (spoilt, line)
    # Both at once: both lines. And the limit is the gateway's own: 64 KiB takes the 40 KB picture.
    path.write_text(spoil(json.loads(json.dumps(document)), biography="x" * 1501, portrait=portrait_of(SVG)))
    assert [line.split(": ", 1)[1] for line in cli_refusal(capsys, target_url, path)] == [
        "the biography has 1501 characters; a biography is at most 1500",
        "the portrait is not a PNG, JPEG, WebP or GIF picture",
    ]
    path.write_text(spoil(json.loads(json.dumps(document)), portrait=portrait_of(NOISE)))
    assert (
        run_cli(Namespace(verb="import", file=str(path)), make_settings(target_url, web={"portrait_kib": 64}))
        == 0
    )
    capsys.readouterr()
    path.write_text(json.dumps(document))
    settings_ = make_settings(target_url, web={"portrait_kib": "lots"})
    assert run_cli(Namespace(verb="import", file=str(path)), settings_) == 2
    assert capsys.readouterr().err.splitlines() == ["[web] portrait_kib is 'lots', not a whole number of KiB"]


def test_the_import_s_texts_speak_every_language_with_the_same_fields() -> None:
    english = profile.TEXTS.messages["en"]
    for locale in ("cs", "ru"):
        table = profile.TEXTS.messages[locale]
        assert set(table) == set(english), locale
    problem = profile.ProfileProblem(0, "Mira", "bio.long", {"count": 1502, "max": 1500})
    assert problem.text("cs") == "životopis má 1502 znaků, může jich mít nejvýše 1500"
    assert problem.text("ru") == "в биографии 1502 символа, а можно не больше 1500"
    assert (
        problem.line()
        == "characters[0] (Mira): the biography has 1502 characters; a biography is at most 1500"
    )
    too_large = profile.ProfileProblem(0, "Mira", "portrait.too_large", {"max": 512})
    assert too_large.text("cs") == "portrét je příliš velký: může mít nejvýše 512 KiB"
    assert too_large.text("ru") == "портрет слишком большой: он может занимать не больше 512 КиБ"


# ---------------------------------------------------------------- whatever the file holds

HEAD = {
    "format": "nightcap-gateway/features/characters",
    "version": 2,
    "exported_at": "2026-12-01T20:00:00Z",
    "source": {"gateway": "0.1.0", "systems": {"nightcap": None}},
}
CHARACTER = {
    "system": "nightcap",
    "name": "Mira",
    "status": "creation",
    "active": True,
    "created_at": "2026-12-01T20:00:00Z",
    "updated_at": "2026-12-01T20:00:00Z",
    "owner": {
        "display_name": "Mira",
        "locale": None,
        "created_at": "2026-12-01T20:00:00Z",
        "identities": [
            {
                "key": PIXEL,
                "platform": "console",
                "display_name": "Mira",
                "verified": True,
                "created_at": "2026-12-01T20:00:00Z",
            }
        ],
    },
    "sheet": {},
    "pools": [],
    "rolls": [],
    "stlog": [],
    "audit": [],
}
KINDS = st.sampled_from(["image/png", "image/jpeg", "image/webp", "image/gif"])
PICTURES = st.builds(
    picture,
    st.sampled_from(["PNG", "JPEG", "WEBP", "GIF", "BMP", "TIFF"]),
    st.tuples(st.integers(1, 5000), st.integers(1, 8)),
)


def checked(profile_: object, limit_kib: int = 16) -> tuple[ExportDoc | None, list[str]]:
    doc, problems = load({**HEAD, "characters": [{**CHARACTER, "profile": profile_}]})
    if doc is None:
        return None, problems
    return doc, [p.text("cs") for p in profile.problems(doc, limit_kib)]


@st.composite
def spoilt_pictures(draw: st.DrawFn) -> bytes:
    """A picture, its bytes then cut, overwritten or grown."""
    data = bytearray(draw(PICTURES))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(data)))
        match draw(st.sampled_from(["cut", "set", "insert"])):
            case "cut":
                del data[at:]
            case "set":
                data[at : at + 1] = bytes([draw(st.integers(0, 255))])
            case _:
                data[at:at] = draw(st.binary(max_size=16))
    return bytes(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=spoilt_pictures() | st.binary(max_size=64),
    said=KINDS,
    bio=st.text(max_size=1600),
)
def test_any_bytes_and_text_are_kept_as_what_they_are_or_refused(data: bytes, said: str, bio: str) -> None:
    """The check never raises; a portrait it keeps is a picture of the type its bytes say, within
    the limits; a biography it keeps fits and has nothing a typed line could not hold."""
    doc, problems = checked({"biography": bio, "portrait": portrait_of(data, said)})
    if "\x00" in bio:
        assert doc is None
        return
    assert doc is not None
    keys = {p.key for p in profile.problems(doc, 16)}
    assert keys <= set(profile.TEXTS.messages["en"]) and len(problems) == len(keys)
    found = profiles.picture_kind(data)
    portrait_kept = not any(key.startswith("portrait.") for key in keys)
    assert portrait_kept == (
        found is not None and len(data) <= 16 * 1024 and max(found[1:]) <= 4096 and found[0] == said
    )
    assert ("bio.long" in keys) == (len(bio) > profiles.BIO_MAX)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(
    value=JSON
    | st.fixed_dictionaries({"biography": JSON, "portrait": JSON})
    | st.fixed_dictionaries(
        {
            "biography": st.text(max_size=30),
            "portrait": st.fixed_dictionaries({"media_type": KINDS, "data": JSON | st.text()}),
        }
    )
)
def test_any_json_for_a_profile_is_read_or_refused_in_lines(value: object) -> None:
    doc, problems = checked(value)
    assert doc is not None or problems
    assert all(isinstance(line, str) and "\n" not in line for line in problems)


def test_the_limit_is_read_from_the_web_table() -> None:
    assert profiles.portrait_kib({}) == profiles.PORTRAIT_KIB == 512
    assert profiles.portrait_kib({"portrait_kib": 64}) == profiles.portrait_kib({"portrait_kib": " 64"}) == 64
    for bad in (True, 0, -5, "1e3", "²", 1.5, None):
        with pytest.raises(ValueError, match="not a whole number of KiB"):
            profiles.portrait_kib({"portrait_kib": bad})


def test_a_made_up_key_or_name_stays_on_one_line() -> None:
    """Found by the JSON property above: a key with a line break in it made a problem two lines."""
    _, problems = checked({"biography": "", "portrait": None, "\nmood": 1})
    assert problems == ["characters[0] (Mira).profile.'\\nmood': Extra inputs are not permitted"]
    _, problems = load({**HEAD, "characters": [{**CHARACTER, "name": "Mi\nra", "active": "maybe"}]})
    assert problems == [
        "characters[0] ('Mi\\nra').active: Input should be a valid boolean, unable to interpret input"
    ]
