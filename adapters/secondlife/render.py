"""Second Life sizes: chat lines of at most 1023 bytes, bodies of at most 2048 (or 16384) bytes."""

from __future__ import annotations

from typing import Any

import orjson

from adapters.secondlife.config import CHAT_LINE_BYTES


def dumps(value: Any) -> bytes:
    """Compact UTF-8 JSON, the form every size here is measured in."""
    return orjson.dumps(value)


def utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def cut_bytes(text: str, limit: int) -> str:
    """The longest prefix of ``text`` of at most ``limit`` UTF-8 bytes, never splitting a character."""
    raw = text.encode("utf-8")
    if len(raw) <= limit:
        return text
    return raw[:limit].decode("utf-8", "ignore")


def split_text(text: str, limit: int = CHAT_LINE_BYTES) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` UTF-8 bytes, at a line break if there is one
    in the second half of the piece, else at a space, else between characters."""
    if limit < 8:
        raise ValueError("limit too small")
    pieces: list[str] = []
    rest = text
    while utf8_len(rest) > limit:
        head = cut_bytes(rest, limit)
        at = head.rfind("\n")
        if at < len(head) // 2:
            at = head.rfind(" ")
        if at >= len(head) // 2 and at > 0:
            piece, rest = rest[:at].rstrip(), rest[at + 1 :]
        else:
            piece, rest = head, rest[len(head) :]
        if piece:
            pieces.append(piece)
    if rest or not pieces:
        pieces.append(rest)
    return pieces


def reply_items(replies: list[Any]) -> list[dict[str, Any]]:
    """Router replies as HUD reply items: ``{"text", "private"}`` (+ ``"error": true`` on refusals),
    each text at most one chat line."""
    items: list[dict[str, Any]] = []
    for reply in replies:
        for piece in split_text(reply.text):
            item: dict[str, Any] = {"text": piece, "private": bool(reply.private)}
            if reply.error:
                item["error"] = True
            items.append(item)
        if items and isinstance(reply.result, dict) and reply.result.get("kind") == "web_link":
            items[-1]["url"] = reply.result["url"]  # the HUD offers it with llLoadURL
    return items


def fit_response(
    items: list[dict[str, Any]], extra: dict[str, Any], limit: int
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The response body within ``limit`` bytes, and the reply items that did not fit.

    Reply items come first; the structured fields (``extra``: state, roster) are dropped as a whole
    when they do not fit (``"dropped"`` lists them, so the HUD can ask again). Items that still do
    not fit are returned for the caller to push; ``"more"`` says how many.
    """
    body: dict[str, Any] = {"replies": items, **extra}
    if len(dumps(body)) <= limit:
        return body, []
    body = {"replies": items}
    dropped = sorted(extra)
    if dropped:
        body["dropped"] = dropped
    if len(dumps(body)) <= limit:
        return body, []
    kept: list[dict[str, Any]] = []
    rest = list(items)
    while rest:
        trial = {**body, "replies": [*kept, rest[0]], "more": len(rest) - 1}
        if len(dumps(trial)) > limit:
            break
        kept.append(rest.pop(0))
    body = {**body, "replies": kept, "more": len(rest)}
    return body, rest
