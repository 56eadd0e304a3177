"""Outbox payloads to Matrix ``m.room.message`` content: an ``m.notice`` with a plain ``body`` and an
``org.matrix.custom.html`` ``formatted_body``. Pure functions, no I/O.

The adapter knows no rules, so it does not rebuild a roll line: it takes the line the rule system
wrote and puts in bold the parts the structured result names (faces, total, degree, a contest's
outcome), found in order. Sheets become a small table built from the result's fields.
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
SKIP_KEYS = {"kind", "system", "id", "name", "secret", "private"}


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
    if result and tabular and not _roll_sides(result):
        return sheet_table(text, result)
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


def _cell(value: Any) -> str:
    if isinstance(value, dict):
        if set(value) == {"current", "max"}:
            return f"{value['current']}/{value['max']}"
        return ", ".join(f"{k}: {_cell(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "; ".join(_item(v) for v in value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    return "" if value is None else str(value)


def _item(value: Any) -> str:
    """A list entry: a record reads as its first value with the rest in brackets (``Veil (basic, x)``)."""
    if isinstance(value, dict) and value:
        first, *rest = [_cell(v) for v in value.values() if v not in (None, "")]
        return f"{first} ({', '.join(rest)})" if rest else first
    return _cell(value)


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def sheet_table(text: str, result: dict[str, Any]) -> str:
    """A small table: the name as caption, a row per field; a table-valued field (traits, pools) gets a
    header row and a row per entry. The plain text stays in ``body``."""
    data = result["sheet"] if isinstance(result.get("sheet"), dict) else result
    lines = text.split("\n")
    caption = lines[0] if len(lines) > 1 else str(data.get("name") or data.get("character") or text)
    rows: list[str] = []
    labels: set[str] = set()
    for key, value in data.items():
        if key in SKIP_KEYS or value in (None, "", [], {}):
            continue
        labels.add(key.casefold())
        if isinstance(value, dict) and set(value) != {"current", "max"}:
            rows.append(f'<tr><th colspan="2">{_escape(_label(key))}</th></tr>')
            for k, v in value.items():
                labels.add(str(k).casefold())
                rows.append(f"<tr><td>{_escape(_label(str(k)))}</td><td>{_escape(_cell(v) or '—')}</td></tr>")
        else:
            rows.append(f"<tr><td>{_escape(_label(key))}</td><td>{_escape(_cell(value))}</td></tr>")
    table = f"<table><caption>{_escape(caption)}</caption><tbody>{''.join(rows)}</tbody></table>"
    # Lines of the text the table does not show (they do not start with one of its labels) follow it.
    rest = [line for line in lines[1:] if line.strip() and _lead(line) not in labels]
    return table + "".join(f"<p>{_escape(line)}</p>" for line in rest)


def _lead(line: str) -> str:
    match = re.match(r"\s*([^\W\d_]+)", line)
    return match.group(1).casefold() if match else ""


_FALLBACK = re.compile(r"^(?:>[^\n]*\n)+\n?")


def strip_reply_fallback(body: str) -> str:
    """Remove a legacy rich-reply fallback (``> <@user> quoted`` lines, then a blank line)."""
    return _FALLBACK.sub("", body, count=1) if body.startswith(">") else body
