"""Outbox payloads to Matrix ``m.room.message`` content: an ``m.notice`` with a plain ``body`` and an
``org.matrix.custom.html`` ``formatted_body``. Pure functions, no I/O.

The adapter knows no rules, so it does not rebuild a roll line: it takes the line the rule system
wrote and puts in bold the parts the structured result names (faces, total, degree, a contest's
outcome), found in order. A sheet of several lines becomes a small table of its own lines. The HTML
never says less than ``body`` (nor anything else): Element shows only ``formatted_body``.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable
from typing import Any

# A whole event must stay below 65536 bytes including the envelope and signatures; content is kept
# far below that.
MAX_CONTENT_BYTES = 32 * 1024
MAX_BODY_BYTES = 16 * 1024
CUT_MARK = " … (cut)"
HTML_FORMAT = "org.matrix.custom.html"
TABLE_KINDS = {"sheet", "prove", "character", "sheet_export"}


def render_content(
    payload: dict[str, Any], *, in_reply_to: str | None = None, mentions: Iterable[str] = ()
) -> dict[str, Any]:
    """The event content for one outbox payload (``text``, optional ``result``)."""
    text = str(payload.get("text", ""))
    result = payload.get("result") if isinstance(payload.get("result"), dict) else None
    content: dict[str, Any] = {
        "msgtype": "m.notice",
        "body": text,
        "format": HTML_FORMAT,
        "formatted_body": to_html(text, result),
        "m.mentions": {"user_ids": sorted(set(mentions))} if mentions else {},
    }
    if in_reply_to:
        content["m.relates_to"] = {"m.in_reply_to": {"event_id": in_reply_to}}
    return fit(content)


def content_size(content: dict[str, Any]) -> int:
    return len(json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode())


def fit(content: dict[str, Any]) -> dict[str, Any]:
    """Keep the content far below the 64 KiB event limit: drop the HTML, then cut the body."""
    if content_size(content) <= MAX_CONTENT_BYTES:
        return content
    slim = {k: v for k, v in content.items() if k not in ("format", "formatted_body")}
    slim["body"] = truncate_utf8(str(content["body"]), MAX_BODY_BYTES)
    return slim


def truncate_utf8(text: str, limit: int) -> str:
    data = text.encode()
    if len(data) <= limit:
        return text
    keep = limit - len(CUT_MARK.encode())
    return data[:keep].decode(errors="ignore") + CUT_MARK


def to_html(text: str, result: dict[str, Any] | None) -> str:
    tabular = result and (result.get("kind") in TABLE_KINDS or isinstance(result.get("traits"), dict))
    if result and tabular and not _roll_sides(result) and "\n" in text.strip():
        return sheet_table(text)
    spans = highlight_spans(text, result) if result else []
    out: list[str] = []
    pos = 0
    for start, end in spans:
        out.append(_escape(text[pos:start]))
        out.append(f"<b>{_escape(text[start:end])}</b>")
        pos = end
    out.append(_escape(text[pos:]))
    return "".join(out)


def _escape(text: str) -> str:
    return html.escape(text, quote=False).replace("\n", "<br>")


def _roll_sides(result: dict[str, Any]) -> list[dict[str, Any]]:
    sides = result.get("sides")
    if isinstance(sides, list):
        return [s for s in sides if isinstance(s, dict)]
    if isinstance(result.get("dice"), list):
        return [result]
    if isinstance(result.get("roll"), dict):  # verify: the logged roll
        return _roll_sides(result["roll"])
    return []


def _number(value: int) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w#+\-.]){re.escape(str(value))}(?![\w.])")


def _word(value: str) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(value)}(?!\w)", re.IGNORECASE)


def highlight_spans(text: str, result: dict[str, Any]) -> list[tuple[int, int]]:
    """Where the faces, total and degree of each side (then a contest's outcome) stand in ``text``,
    searched in that order; a part that is not found is left plain."""
    spans: list[tuple[int, int]] = []
    pos = 0

    def take(match: re.Match[str] | None) -> None:
        nonlocal pos
        if match is not None:
            spans.append(match.span())
            pos = match.end()

    for side in _roll_sides(result):
        faces = " ".join(str(f) for f in side.get("dice") or [])
        if faces:
            pattern = re.escape(faces)
            after_colon = re.compile(rf"(?<=: ){pattern}(?![\w])").search(text, pos)
            take(after_colon or re.compile(rf"(?<![\w#+\-.]){pattern}(?![\w])").search(text, pos))
        total = side.get("total")
        if isinstance(total, int) and not isinstance(total, bool):
            take(_number(total).search(text, pos))
        degree = side.get("degree")
        if isinstance(degree, str) and degree:
            take(_word(degree.replace("_", " ")).search(text, pos))
    outcome = result.get("outcome")
    if isinstance(outcome, str) and outcome and result.get("sides"):
        take(_word(outcome.replace("_", " ")).search(text, pos))
    return spans


def sheet_table(text: str) -> str:
    """A multi-line sheet as a small table built from its own text, so that the HTML says exactly what
    ``body`` says: the first line is the caption, a ``Label: value`` line (or a `` · `` list of them) is
    a row per pair, any other line (and every line after it) is a paragraph after the table."""
    lines = text.strip().split("\n")
    rows: list[str] = []
    after: list[str] = []
    for line in lines[1:]:
        if not line.strip():
            continue
        pairs = _pairs(line)
        if pairs is None or after:
            # A paragraph, and everything after it (the text's order is kept).
            after.append(f"<p>{_escape(line)}</p>")
            continue
        rows.extend(f"<tr><th>{_escape(label)}:</th><td>{_escape(value)}</td></tr>" for label, value in pairs)
    table = f"<table><caption>{_escape(lines[0])}</caption><tbody>{''.join(rows)}</tbody></table>"
    return table + "".join(after)


SEPARATOR = " · "
MAX_LABEL = 30


def _pairs(line: str) -> list[tuple[str, str]] | None:
    """``Origin: A · Aptitude: —`` as (label, value) pairs; None when a part is not such a pair (a label
    is a few words without a full stop: ``Traits start at 1: place ...`` is a sentence, not a row)."""
    pairs: list[tuple[str, str]] = []
    for part in line.split(SEPARATOR):
        label, colon, value = part.partition(": ")
        short = 0 < len(label) <= MAX_LABEL and len(label.split()) <= 3 and "." not in label
        if not colon or not short or label != label.strip():
            return None
        pairs.append((label, value.strip()))
    return pairs


_FALLBACK = re.compile(r"^(?:>[^\n]*\n)+\n?")


def strip_reply_fallback(body: str) -> str:
    """Remove a legacy rich-reply fallback (``> <@user> quoted`` lines, then a blank line)."""
    return _FALLBACK.sub("", body, count=1) if body.startswith(">") else body
