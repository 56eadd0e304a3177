"""A character's flavour, the same for every rule system: its biography (``char bio``) and the
portrait uploaded on its web sheet, kept in ``character_profile`` beside the sheet, not in it.

Both are flavour, not rules: the owner may change them after the sheet is approved too. The
biography is prose in paragraphs (a blank line between them, as typed); the portrait's bytes are
checked before they come here: by the web's upload (``adapters/web/account/portraits.py``, which
serves them to whoever may see the sheet) and, by the same rules, ``portrait_type`` for ``st import``
and ``gateway import characters``.
"""

from __future__ import annotations

import hashlib
import io
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from gateway.core.commands import Command, CommandContext
from gateway.core.core_params import PARAMS
from gateway.core.hookspecs import hookimpl
from gateway.core.i18n import Catalogue
from gateway.core.types import Invocation, Reply
from gateway.features.characters import require_active
from gateway.rules.numbers import read_int
from gateway.vault import repo
from gateway.vault.models import CharacterProfile
from gateway.vault.repo import Db, within

BIO_MAX = 1500  # characters: a page of prose, and with ``char bio`` within a command line's 2000
# A command line is one line (no platform's chat sends a newline through), so a paragraph break is
# typed as a word of its own, ``//``; the biography keeps a blank line there.
BREAK = "//"
_PARAGRAPHS = re.compile(r"\n\s*\n")
# Pillow's format names for the pictures a browser shows everywhere; nothing else is a portrait.
PICTURES = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}
MAX_SIDE = 4096  # pixels: larger than any screen shows a portrait, small enough to decode safely
PORTRAIT_KIB = 512  # ``[web] portrait_kib`` when the table does not say

EN = {
    "bio.shown": "{name}'s biography:\n{text}",
    "bio.none": "{name} has no biography yet: char bio TEXT writes one (// between paragraphs).",
    "bio.saved": "{name}'s biography is saved ({count} {count:plural:character:characters}).",
    "bio.cleared": "{name}'s biography is removed.",
    "bio.long": "A biography is at most {max} characters; this one has {count}.",
}
CS = {
    "bio.shown": "Životopis postavy {name}:\n{text}",
    "bio.none": (
        "Postava {name} zatím nemá životopis: napište ho příkazem char bio TEXT (odstavce oddělte //)."
    ),
    "bio.saved": "Životopis postavy {name} je uložen ({count} {count:plural:znak:znaky:znaků}).",
    "bio.cleared": "Životopis postavy {name} je smazán.",
    "bio.long": "Životopis může mít nejvýše {max} znaků; tento jich má {count}.",
}
RU = {
    "bio.shown": "Биография персонажа {name}:\n{text}",
    "bio.none": (
        "У персонажа {name} пока нет биографии: напишите её командой char bio ТЕКСТ (абзацы разделяйте //)."
    ),
    "bio.saved": "Биография персонажа {name} сохранена ({count} {count:plural:символ:символа:символов}).",
    "bio.cleared": "Биография персонажа {name} удалена.",
    "bio.long": "Биография может быть не длиннее {max} символов, а в этой {count}.",
}
CATALOGUE = Catalogue({"en": EN, "cs": CS, "ru": RU})


@dataclass(frozen=True)
class Portrait:
    data: bytes
    content_type: str  # checked from the bytes when it was uploaded
    tag: str  # the bytes' SHA-256, hex: the ETag


@dataclass(frozen=True)
class Profile:
    """What a sheet page shows: the biography and, when there is a portrait, its tag (no bytes)."""

    biography: str = ""
    portrait_tag: str | None = None


@dataclass(frozen=True)
class Unfit:
    """Why bytes are not kept as a portrait: a message key (``portrait.too_large``,
    ``portrait.not_image``, ``portrait.too_wide``) and its values."""

    key: str
    values: Mapping[str, int] = field(default_factory=dict)


def picture_kind(data: bytes) -> tuple[str, int, int] | None:
    """(content type, width, height) read from the header of a PNG, JPEG, WebP or GIF; None for
    anything else (another format, a truncated or forged header). Nothing is decoded."""
    from PIL import Image, UnidentifiedImageError  # only a portrait being kept needs it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=list(PICTURES)) as image:
                found = PICTURES.get(image.format or "")
                return None if found is None else (found, *image.size)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError, SyntaxError):
        return None


def portrait_type(data: bytes, limit_kib: int) -> str | Unfit:
    """The content type ``data`` is kept with as a portrait (``[web] portrait_kib`` being
    ``limit_kib``), read from its bytes whatever a file's name or a document says; or why not."""
    if len(data) > limit_kib * 1024:
        return Unfit("portrait.too_large", {"max": limit_kib})
    found = picture_kind(data)
    if found is None:
        return Unfit("portrait.not_image")
    kind, width, height = found
    if width > MAX_SIDE or height > MAX_SIDE:
        return Unfit("portrait.too_wide", {"width": width, "height": height, "max": MAX_SIDE})
    return kind


def portrait_kib(section: Mapping[str, object]) -> int:
    """``portrait_kib`` of the raw ``[web]`` table (the web adapter validates the table where it
    runs; an import may run where it does not): a positive whole number, or ``ValueError``."""
    raw = section.get("portrait_kib", PORTRAIT_KIB)
    value = None if isinstance(raw, bool) else read_int(str(raw).strip())
    if not value:
        raise ValueError(f"[web] portrait_kib is {str(raw)[:20]!r}, not a whole number of KiB")
    return value


def paragraphs(text: str) -> list[str]:
    """The biography's paragraphs, each one line of text."""
    return [p for p in (" ".join(part.split()) for part in _PARAGRAPHS.split(text)) if p]


def biography_of(words: Sequence[str]) -> str:
    """The biography typed as ``words``: paragraphs where a word is ``//``, kept with a blank line
    between them."""
    found: list[list[str]] = [[]]
    for word in words:
        if word == BREAK:
            found.append([])
        else:
            found[-1].append(word)
    return "\n\n".join(" ".join(p) for p in found if p)


def typed(text: str) -> str:
    """A biography written with blank lines (the web's text area) as ``char bio`` takes it."""
    return f" {BREAK} ".join(paragraphs(text))


async def profile(db: Db, character_id: int) -> Profile:
    async with within(db) as unit:
        found = await unit.session.exec(
            select(CharacterProfile.biography, CharacterProfile.portrait_hash).where(
                col(CharacterProfile.character_id) == character_id
            )
        )
        row = found.first()
    if row is None:
        return Profile()
    return Profile(row[0], row[1] or None)


async def portrait(db: Db, character_id: int) -> Portrait | None:
    async with within(db) as unit:
        row = await unit.session.get(CharacterProfile, character_id)
        if row is None or row.portrait is None:
            return None
        return Portrait(row.portrait, row.portrait_type, row.portrait_hash)


async def _row(db: Db, character_id: int, now: datetime) -> CharacterProfile:
    async with within(db) as unit:
        row = await unit.session.get(CharacterProfile, character_id)
        if row is None:
            row = CharacterProfile(character_id=character_id, updated_at=now)
        return row


@dataclass(frozen=True)
class By:
    """Who changes a portrait (the signed-in person and identity), for the audit history."""

    person_id: int
    identity_key: str


async def set_portrait(
    db: Db, character_id: int, data: bytes, content_type: str, now: datetime, by: By | None = None
) -> str:
    """Keep a checked picture as the character's portrait, audited (its tag, old and new); its tag."""
    async with within(db) as unit:
        row = await _row(unit, character_id, now)
        old = row.portrait_hash or None
        row.portrait, row.portrait_type = data, content_type
        row.portrait_hash = hashlib.sha256(data).hexdigest()
        row.updated_at = now
        unit.session.add(row)
        await _audit(unit.session, character_id, old, row.portrait_hash, now, by)
        return row.portrait_hash


async def remove_portrait(db: Db, character_id: int, now: datetime, by: By | None = None) -> bool:
    """Whether there was a portrait to remove."""
    async with within(db) as unit:
        row = await unit.session.get(CharacterProfile, character_id)
        if row is None or row.portrait is None:
            return False
        old = row.portrait_hash
        row.portrait, row.portrait_type, row.portrait_hash, row.updated_at = None, "", "", now
        unit.session.add(row)
        await _audit(unit.session, character_id, old, None, now, by)
        return True


async def _audit(
    session: AsyncSession, character_id: int, old: str | None, new: str | None, now: datetime, by: By | None
) -> None:
    if by is None:
        return
    await repo.audit(
        session,
        actor_id=by.person_id,
        actor_key=by.identity_key,
        action="web.portrait",
        character_id=character_id,
        field_name="portrait",
        old=old and old[:12],
        new=new and new[:12],
        now=now,
    )


async def bio_command(ctx: CommandContext, inv: Invocation) -> Reply:
    """``char bio``: the active character's biography; ``char bio TEXT`` sets it, ``--clear`` removes it."""
    character = await require_active(ctx)
    assert character.id is not None
    name = character.name
    row = await _row(ctx.session, character.id, ctx.now)
    if inv.args.get("clear"):
        new = ""
    elif inv.args.get("text"):
        # A lone ``#`` starts a roll's comment; in a biography it is text.
        new = biography_of([*inv.words, *(("#", inv.comment) if inv.comment else ())])
        if len(new) > BIO_MAX:
            raise CATALOGUE.refusal(ctx, "bio.long", max=BIO_MAX, count=len(new))
    elif row.biography:
        return Reply(CATALOGUE.say(ctx, "bio.shown", name=name, text=row.biography), private=True)
    else:
        return Reply(CATALOGUE.say(ctx, "bio.none", name=name), private=True)
    old, row.biography, row.updated_at = row.biography, new, ctx.now
    ctx.session.add(row)
    await ctx.audit(
        "char.bio", character_id=character.id, field_name="biography", old=old or None, new=new or None
    )
    key = "bio.saved" if new else "bio.cleared"
    return Reply(CATALOGUE.say(ctx, key, name=name, count=len(new)), private=True)


COMMANDS = {
    "char bio": (
        bio_command,
        ("show or write your active character's biography", "char bio [TEXT | --clear]"),
        {
            "cs": ("ukáže nebo napíše životopis vaší aktivní postavy", "char bio [TEXT | --clear]"),
            "ru": (
                "показать или написать биографию вашего активного персонажа",
                "char bio [ТЕКСТ | --clear]",
            ),
        },
    ),
}


@hookimpl
def gateway_register_commands(register: Callable[[Command], None]) -> None:
    for name, (handler, (summary, usage), texts) in COMMANDS.items():
        register(Command(name, handler, summary, usage, texts=texts, params=PARAMS[name]))
