"""The characters file of ``gateway export characters`` (pure): its shape as pydantic models, the
version rule, and the problems of a file in one line each.

A file is one JSON object: ``format``, ``version``, ``exported_at``, ``source`` and ``characters``,
in that order; each character carries its owner, sheet, pools, profile (version 2: its biography
and portrait, when it has either) and history (rolls, Storyteller-log entries, audit rows). Models
forbid unknown keys, so a file with a field this version does not know is refused rather than half
read: every change to the shape is a new ``VERSION``, and the versions before it still read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)

FORMAT = "nightcap-gateway/features/characters"
VERSION = 2  # 2: ``profile`` (biography and portrait); a version 1 file is one without it
MAX_PROBLEMS = 10


def _utc(value: datetime) -> datetime:
    try:
        return value.astimezone(UTC)
    except OverflowError:  # year 1 at +01:00: no such UTC time
        raise ValueError("time out of range") from None


# ISO-8601 with an offset on the way in (naive times are refused), UTC on the way out ("...Z").
Time = Annotated[AwareDatetime, AfterValidator(_utc)]
Key = Annotated[str, Field(min_length=1, max_length=300)]
Where = Annotated[str, Field(max_length=300)]  # a key a history row shows, not one it is found by
Short = Annotated[str, Field(min_length=1, max_length=40)]
Int = Annotated[int, Field(ge=-(2**31), le=2**31 - 1)]  # what an INTEGER column holds
RollId = Annotated[str, Field(pattern=r"^[0-9a-z]{1,16}$")]


class _Doc(BaseModel):
    model_config = ConfigDict(extra="forbid")

    @field_validator("*")
    @classmethod
    def _storable(cls, value: Any) -> Any:
        # PostgreSQL text cannot hold NUL: refuse it here, naming the field, not at the insert.
        if isinstance(value, str) and "\x00" in value:
            raise ValueError("text with a NUL character cannot be stored")
        return value


class IdentityDoc(_Doc):
    key: Key  # ``discord:123``
    platform: Short
    display_name: str
    verified: bool
    created_at: Time


class OwnerDoc(_Doc):
    display_name: str
    locale: str | None
    created_at: Time
    identities: list[IdentityDoc] = Field(min_length=1)


class PoolDoc(_Doc):
    name: Short
    current: Int
    maximum: Int


class RollDoc(_Doc):
    public_id: RollId
    created_at: Time
    identity_key: Where
    display_name: str
    channel_key: Where
    system: Short
    kind: Short
    pool: Int | None
    dice: list[Int]
    total: Int | None
    degree: str | None
    result: dict[str, Any]
    text: str | None
    stlog_kind: Annotated[str, Field(max_length=40)] | None


class StlogDoc(_Doc):
    created_at: Time
    person: Key | None  # an identity key of the person who wrote it (their first), or null
    channel_key: Where
    kind: Short
    text: str
    result: dict[str, Any]


class AuditDoc(_Doc):
    created_at: Time
    actor_key: Where
    action: Annotated[str, Field(min_length=1, max_length=60)]
    field_name: str | None
    old_value: str | None
    new_value: str | None


class PortraitDoc(_Doc):
    media_type: Literal["image/png", "image/jpeg", "image/webp", "image/gif"]
    data: str  # the picture's bytes, base64 (RFC 4648, standard alphabet, padded)


class ProfileDoc(_Doc):
    """``char bio`` and the web sheet's portrait; checked as they are when typed or uploaded
    (``gateway.features.transfer.profile``), not here, so a refusal speaks the reader's language."""

    biography: str  # "" for none; paragraphs apart by a blank line
    portrait: PortraitDoc | None


class CharacterHead(_Doc):
    """A character without its history (which the export streams after it, row by row)."""

    system: Short
    name: Annotated[str, Field(min_length=1, max_length=60)]
    status: Annotated[str, Field(min_length=1, max_length=20)]
    active: bool  # the owner's active character
    # ``char retire``: out of play, its history kept. Optional, so files from before it still read.
    retired_at: Time | None = None
    created_at: Time
    updated_at: Time
    owner: OwnerDoc
    sheet: dict[str, Any]
    pools: list[PoolDoc]
    # Version 2; left out when the character has neither a biography nor a portrait.
    profile: ProfileDoc | None = None


class CharacterDoc(CharacterHead):
    rolls: list[RollDoc]
    stlog: list[StlogDoc]
    audit: list[AuditDoc]


class SourceDoc(_Doc):
    gateway: str
    systems: dict[str, str | None]  # every system in the file: its plugin's version, null if unknown


class Header(_Doc):
    format: Literal["nightcap-gateway/features/characters"]
    version: Literal[1, 2]
    exported_at: Time
    source: SourceDoc


class ExportDoc(Header):
    characters: list[CharacterDoc]


def header_json(header: Header) -> str:
    """The file's opening up to the first character: ``{"format": ..., "characters": [``."""
    return header.model_dump_json()[:-1] + ',"characters":[\n'


FOOTER = "\n]}\n"


def head_json(head: CharacterHead) -> str:
    """A character's opening, before its history lists (``,"rolls":[...]`` and so on) and ``}``."""
    return head.model_dump_json(exclude=None if head.profile else {"profile"})[:-1]


def version_problem(data: object) -> str | None:
    """Why a parsed document is not a characters file this gateway reads, checked before the rest
    (a newer file would otherwise fail on its new fields)."""
    if not isinstance(data, dict):
        return "not a characters file: the document is not a JSON object"
    if data.get("format") != FORMAT:
        return f'not a characters file: "format" is not {FORMAT!r}'
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        return '"version" is not a positive whole number'
    if version > VERSION:
        return (
            f"this file is format version {version}, written by a newer gateway;"
            f" this one reads version {VERSION}: upgrade the gateway to import it"
        )
    return None


def place(loc: Sequence[int | str], prefix: str = "") -> str:
    """``characters[2] (Mira Vance).rolls[0].public_id``: a validation error's place, readable."""
    out = prefix
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + _shown(str(part))
    return out or "the document"


def _shown(text: str) -> str:
    """A name or key from the file, as a problem line shows it: cut at 60, and quoted when it has a
    line break or the like in it, so the problem stays one line."""
    return text[:60] if text[:60].isprintable() else repr(text[:60])


def label(index: int, name: object) -> str:
    """How a problem names a character of the file: ``characters[2] (Mira Vance)``."""
    return f"characters[{index}]" + (f" ({_shown(name)})" if isinstance(name, str) else "")


def error_lines(exc: ValidationError, prefix: str = "") -> list[str]:
    return [f"{place(e['loc'], prefix)}: {e['msg']}" for e in exc.errors()]


def load(data: object) -> tuple[ExportDoc | None, list[str]]:
    """A parsed file as models, or its problems. Characters are validated one by one and each raw
    one is dropped once read (``data`` loses its ``characters``), so a big file is in memory about
    once, not twice."""
    problem = version_problem(data)
    if problem is not None:
        return None, [problem]
    assert isinstance(data, dict)
    raw = data.pop("characters", None)
    problems: list[str] = []
    header: Header | None = None
    try:
        header = Header.model_validate(data)
    except ValidationError as exc:
        problems += error_lines(exc)
    if not isinstance(raw, list):
        return None, [*problems, "characters: Input should be a valid list"]
    characters: list[CharacterDoc] = []
    for index, item in enumerate(raw):
        raw[index] = None
        try:
            character = CharacterDoc.model_validate(item)
        except ValidationError as exc:
            name = item.get("name") if isinstance(item, dict) else None
            problems += error_lines(exc, label(index, name))
            continue
        characters.append(character)
        if character.profile is not None and data.get("version") == 1:
            problems.append(f"{label(index, character.name)}.profile: a version 2 key in a version 1 file")
    if header is None or problems:
        return None, problems
    return ExportDoc.model_construct(**dict(header), characters=characters), []


def summary_lines(problems: list[str]) -> list[str]:
    """At most ``MAX_PROBLEMS`` lines, the last one saying how many more there are."""
    if len(problems) <= MAX_PROBLEMS:
        return problems
    shown = problems[: MAX_PROBLEMS - 1]
    return [*shown, f"... and {len(problems) - len(shown)} more problems"]
