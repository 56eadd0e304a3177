"""A character's portrait: uploaded on its owner's sheet page, kept in the vault
(``gateway.features.profiles``), served at ``/c/ID/portrait`` to whoever may see the sheet (its owner,
a Storyteller) and to nobody else.

An upload is taken only as what its bytes are (``profiles.portrait_type``, the check an import makes
too): Pillow reads the header (the magic and the pixel size, nothing decoded), and only PNG, JPEG,
WebP and GIF are kept, whatever the file's name or the browser's type say. The picture goes out with
its checked type, ``nosniff`` and its SHA-256 as the ETag, so a page reload asks and gets a 304.
"""

from __future__ import annotations

from dataclasses import dataclass

from aiohttp import web
from aiohttp.web_request import FileField

from adapters.web.account.auth import Auth
from gateway import AdapterServices
from gateway.features import profiles, records

# Each refusal of ``profiles.portrait_type`` (the one check an upload and an import share) as an answer.
STATUS = {"portrait.too_large": 413, "portrait.not_image": 415, "portrait.too_wide": 422}


@dataclass(frozen=True)
class Refusal:
    """Why an upload was not kept: the HTTP status and the sheet text's key and values."""

    status: int
    key: str
    values: dict[str, int]


@dataclass(frozen=True)
class Picture:
    data: bytes
    content_type: str


def checked(upload: object, limit_kib: int) -> Picture | Refusal:
    """The form's file as a picture to keep, or why not (read no further than the limit allows)."""
    if not isinstance(upload, FileField):
        return Refusal(400, "sheets.portrait.missing", {})
    data = upload.file.read(limit_kib * 1024 + 1)
    if not data:
        return Refusal(400, "sheets.portrait.missing", {})
    kind = profiles.portrait_type(data, limit_kib)
    if isinstance(kind, profiles.Unfit):
        return Refusal(STATUS[kind.key], f"sheets.{kind.key}", dict(kind.values))
    return Picture(data, kind)


class PortraitFiles:
    """``GET /c/ID/portrait``: the picture, to the sheet's owner and to Storytellers only."""

    def __init__(self, services: AdapterServices, auth: Auth) -> None:
        self.services = services
        self.auth = auth

    def add_routes(self, app: web.Application) -> None:
        app.router.add_get("/c/{id:\\d+}/portrait", self.serve)

    async def serve(self, request: web.Request) -> web.StreamResponse:
        signed = await self.auth.current(request)
        character_id = int(request.match_info["id"])
        character = await records.character(self.services.vault, character_id)
        # Anyone else gets what a missing picture gets: nothing says there is one.
        if signed is None or character is None:
            raise web.HTTPNotFound(text="No such portrait.\n")
        owner = character.owner_id == signed.person_id and character.retired_at is None
        if not owner and not await self.auth.is_storyteller(signed):
            raise web.HTTPNotFound(text="No such portrait.\n")
        found = await profiles.portrait(self.services.vault, character_id)
        if found is None:
            raise web.HTTPNotFound(text="No such portrait.\n")
        headers = {
            "X-Content-Type-Options": "nosniff",
            # Kept by this browser only, asked again each time: a new picture or a lost right shows at once.
            "Cache-Control": "private, no-cache",
            "Content-Security-Policy": "default-src 'none'; sandbox",
        }
        if any(tag.value == found.tag for tag in request.if_none_match or ()):
            response = web.Response(status=304, headers=headers)
        else:
            response = web.Response(body=found.data, content_type=found.content_type, headers=headers)
        response.etag = found.tag
        return response
