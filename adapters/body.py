"""Reading an inbound HTTP body for any adapter: bounded by the bytes read, decoded without surprises.

``Content-Length`` is only a claim (a chunked body has none), so the limit counts the bytes that
arrive. JSON goes through orjson, which refuses nesting deeper than 1024 (the standard library's
decoder recurses into a ``RecursionError``), numbers past a double (``1e999``) and lone surrogates
(``"\\udc00"``) with one ``ValueError``, so a malformed body is one 400 and never a 500.
"""

from __future__ import annotations

from typing import Any

import orjson
from aiohttp import web


class BadBody(Exception):
    """A body refused before it reaches the router: ``status`` and a one-line ``text``."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text

    def response(self) -> web.Response:
        return web.Response(status=self.status, text=self.text)

    def json_response(self) -> web.Response:
        return web.json_response({"error": self.text}, status=self.status)


async def read_limited(request: web.Request, limit: int) -> bytes:
    """The whole body, or ``BadBody(413)`` as soon as more than ``limit`` bytes are claimed or read."""
    if request.content_length is not None and request.content_length > limit:
        raise BadBody(413, "body too large")
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = await request.content.read(limit + 1 - size)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise BadBody(413, "body too large")
        chunks.append(chunk)


def json_object(body: bytes, hint: str) -> dict[str, Any]:
    """``body`` as a JSON object, or ``BadBody(400, hint)`` (with the decoder's reason, one line)."""
    try:
        data = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise BadBody(400, f"{hint} ({' '.join(exc.msg.split())[:80]})") from None
    if not isinstance(data, dict):
        raise BadBody(400, hint)
    return data


def optional_str(data: dict[str, Any], key: str, hint: str) -> str | None:
    """``data[key]`` when it is a string, None when absent or null, ``BadBody(400, hint)`` otherwise."""
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise BadBody(400, hint)
