"""Long Storyteller-log entries in fewer IRC lines: short lines joined up to the line limit, and an
entry still longer than ``log_max_lines`` cut, its last line a pointer to ``st log`` (where the
vault keeps the whole entry)."""

from __future__ import annotations

from typing import Any

from gateway.core.i18n import Catalogue

SEPARATOR = " | "

POINTER = Catalogue(
    {
        "en": {"more": "(+{n} more {n:plural:line:lines}: {command})"},
        "cs": {"more": "(ještě {n} {n:plural:řádek:řádky:řádků}: {command})"},
        "ru": {"more": "(ещё {n} {n:plural:строка:строки:строк}: {command})"},
    }
)


def merge_lines(lines: list[str], room: int, separator: str = SEPARATOR) -> list[str]:
    """Consecutive lines joined with ``separator`` while the result stays within ``room`` bytes; a
    line already longer than that is left alone (the caller splits it)."""
    merged: list[str] = []
    size = 0
    gap = len(separator.encode())
    for line in lines:
        width = len(line.encode())
        if merged and size + gap + width <= room:
            merged[-1] = f"{merged[-1]}{separator}{line}"
            size += gap + width
        else:
            merged.append(line)
            size = width
    return merged


def entry_name(result: Any) -> str | None:
    """The character a log entry is about, when its result says (an approved sheet, an edit)."""
    if not isinstance(result, dict):
        return None
    sheet = result.get("sheet")
    name = sheet.get("name") if isinstance(sheet, dict) else result.get("character")
    return name if isinstance(name, str) and name.strip() else None


def summarise(lines: list[str], max_lines: int, *, command: str, locale: str) -> list[str]:
    """At most ``max_lines`` lines (0: all of them): the first ones, then how many more and where
    to read them."""
    if not max_lines or len(lines) <= max_lines:
        return lines
    kept = lines[: max_lines - 1]
    rest = len(lines) - len(kept)
    return [*kept, POINTER.t(locale, "more", n=rest, command=command)]
