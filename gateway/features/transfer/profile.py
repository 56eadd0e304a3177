"""A character's biography and portrait in a characters file (``profile``, format version 2): read
from the vault for an export, checked on an import as ``char bio`` and the web's upload check them
(length; the portrait's type read from its bytes, ``[web] portrait_kib``, 4,096 px a side), and
written with the character.

A problem is a message key with its values, so ``st import`` refuses in the reader's language and
``gateway import characters`` in English after the character's place in the file.
"""

from __future__ import annotations

import base64
import hashlib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from gateway.core.i18n import Catalogue
from gateway.core.parser import UNPRINTABLE
from gateway.features.profiles import BIO_MAX, Unfit, portrait_type
from gateway.features.transfer.format import ExportDoc, PortraitDoc, ProfileDoc, label
from gateway.vault.models import CharacterProfile

TEXTS = Catalogue(
    {
        "en": {
            "bio.long": "the biography has {count} characters; a biography is at most {max}",
            "bio.control": "the biography has control or unassigned characters in it",
            "portrait.base64": "the portrait's data is not base64",
            "portrait.too_large": "the portrait is too large: a portrait is at most {max} KiB here",
            "portrait.not_image": "the portrait is not a PNG, JPEG, WebP or GIF picture",
            "portrait.too_wide": (
                "the portrait is {width} × {height} pixels: a portrait is at most {max} × {max}"
            ),
            "portrait.type": "the portrait is {found}, not {said} as the document says",
        },
        "cs": {
            "bio.long": ("životopis má {count} {count:plural:znak:znaky:znaků}, může jich mít nejvýše {max}"),
            "bio.control": "životopis obsahuje řídicí nebo nepřiřazené znaky",
            "portrait.base64": "data portrétu nejsou v kódování base64",
            "portrait.too_large": "portrét je příliš velký: může mít nejvýše {max} KiB",
            "portrait.not_image": "portrét není obrázek PNG, JPEG, WebP ani GIF",
            "portrait.too_wide": "portrét má {width} × {height} pixelů: může mít nejvýše {max} × {max}",
            "portrait.type": "portrét je ve skutečnosti {found}, ne {said}, jak uvádí dokument",
        },
        "ru": {
            "bio.long": (
                "в биографии {count} {count:plural:символ:символа:символов}, а можно не больше {max}"
            ),
            "bio.control": "в биографии есть управляющие или неназначенные символы",
            "portrait.base64": "данные портрета не закодированы в base64",
            "portrait.too_large": "портрет слишком большой: он может занимать не больше {max} КиБ",
            "portrait.not_image": "портрет не является изображением PNG, JPEG, WebP или GIF",
            "portrait.too_wide": (
                "портрет размером {width} × {height} пикселей, а может быть не больше {max} × {max}"
            ),
            "portrait.type": "портрет на самом деле {found}, а не {said}, как указано в документе",
        },
    }
)


@dataclass(frozen=True)
class ProfileProblem:
    """Why a character's profile is refused: its place in the file, a ``TEXTS`` key and values."""

    index: int
    name: str
    key: str
    values: Mapping[str, int | str]

    def text(self, locale: str) -> str:
        return TEXTS.t(locale, self.key, **self.values)

    def line(self) -> str:
        """The CLI's line: ``characters[0] (Mira): the portrait is ...``."""
        return f"{label(self.index, self.name)}: {self.text('en')}"


def problems(doc: ExportDoc, limit_kib: int) -> list[ProfileProblem]:
    """Every refused biography and portrait of the file, ``limit_kib`` being ``[web] portrait_kib``."""
    found: list[ProfileProblem] = []
    for index, character in enumerate(doc.characters):
        if character.profile is not None:
            for key, values in _unfit(character.profile, limit_kib):
                found.append(ProfileProblem(index, character.name, key, values))
    return found


def _unfit(profile: ProfileDoc, limit_kib: int) -> list[tuple[str, Mapping[str, int | str]]]:
    out: list[tuple[str, Mapping[str, int | str]]] = []
    biography = profile.biography
    if len(biography) > BIO_MAX:
        out.append(("bio.long", {"count": len(biography), "max": BIO_MAX}))
    # What a typed line may not hold (the parser's rule), but for a biography's paragraph breaks.
    elif any(unicodedata.category(c) in UNPRINTABLE for c in biography if c not in "\n\t"):
        out.append(("bio.control", {}))
    if profile.portrait is None:
        return out
    said = profile.portrait.media_type
    # Longer text than ``limit_kib`` KiB in base64 is too large whatever it holds: never decoded.
    if len(profile.portrait.data) > -(-limit_kib * 1024 // 3) * 4:
        return [*out, ("portrait.too_large", {"max": limit_kib})]
    try:
        data = picture(profile.portrait)
    except ValueError:  # binascii.Error, or text that is not ASCII
        return [*out, ("portrait.base64", {})]
    found = portrait_type(data, limit_kib)
    if isinstance(found, Unfit):
        out.append((found.key, dict(found.values)))
    elif found != said:
        out.append(("portrait.type", {"found": found, "said": said}))
    return out


def picture(portrait: PortraitDoc) -> bytes:
    """The portrait's bytes; ``ValueError`` when its data is not strict base64."""
    return base64.b64decode(portrait.data, validate=True)


async def read(conn: AsyncConnection, character_id: int) -> ProfileDoc | None:
    """A character's profile for its export; None when it has neither a biography nor a portrait."""
    table: Any = CharacterProfile.__table__  # type: ignore[attr-defined]
    found = await conn.execute(
        select(table.c.biography, table.c.portrait, table.c.portrait_type).where(
            table.c.character_id == character_id
        )
    )
    row = found.first()
    if row is None or not (row.biography or row.portrait is not None):
        return None
    portrait = None
    if row.portrait is not None:
        data = base64.b64encode(row.portrait).decode("ascii")
        portrait = PortraitDoc(media_type=row.portrait_type, data=data)
    return ProfileDoc(biography=row.biography, portrait=portrait)


def imported(
    character_id: int, profile: ProfileDoc, now: datetime
) -> tuple[CharacterProfile, list[dict[str, Any]]]:
    """A checked profile as its row, and what its audit rows say (``field_name``, ``new_value``):
    the biography as ``char bio`` audits it, the portrait by its tag as the web's upload does."""
    row = CharacterProfile(character_id=character_id, biography=profile.biography, updated_at=now)
    audit: list[dict[str, Any]] = []
    if profile.biography:
        audit.append({"field_name": "biography", "new_value": profile.biography})
    if profile.portrait is not None:
        row.portrait, row.portrait_type = picture(profile.portrait), profile.portrait.media_type
        row.portrait_hash = hashlib.sha256(row.portrait).hexdigest()
        audit.append({"field_name": "portrait", "new_value": row.portrait_hash[:12]})
    return row, audit
