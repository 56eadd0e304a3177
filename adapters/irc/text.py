"""Text for IRC: cleaning what users send, fitting what the bot sends into 512-byte lines, mIRC colour.

Every outgoing line is measured in UTF-8 bytes *as the server relays it*:
``:nick!user@host PRIVMSG #chan :text\\r\\n`` must stay within 512 bytes. Text is split on spaces
when it can be and, for a word longer than a line, between characters, never inside a UTF-8 sequence.
"""

from __future__ import annotations

import re
from typing import Any

LINE_LIMIT = 512

BOLD = "\x02"
COLOUR = "\x03"
RESET = "\x0f"
RED = "04"

# mIRC formatting: bold, colour (with up to two 1-2 digit numbers), hex colour, italic, underline,
# strikethrough, monospace, reverse, reset.
_FORMATTING = re.compile(
    r"\x03(?:\d{1,2}(?:,\d{1,2})?)?|\x04(?:[0-9a-fA-F]{6}(?:,[0-9a-fA-F]{6})?)?|[\x02\x0f\x11\x16\x1d\x1e\x1f]"
)
_LINE_BREAKS = re.compile(r"[\r\n\0]+")


def strip_formatting(text: str) -> str:
    """Remove mIRC bold, colour and the other formatting codes."""
    return _FORMATTING.sub("", text)


def clean_inbound(text: str) -> str:
    """What a user typed, ready for the command parser: no formatting, no CR/LF/NUL, no CTCP markers."""
    return _LINE_BREAKS.sub(" ", strip_formatting(text)).replace("\x01", "")


def clean_outbound(text: str) -> list[str]:
    """Text for sending as lines: split on line breaks, NUL and stray CRs removed, empty lines dropped."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.replace("\r", "").replace("\0", "").replace("\x01", "").rstrip()
        if line.strip():
            lines.append(line)
    return lines


def overhead(source: str, command: str, target: str) -> int:
    """Bytes a relayed line spends around the text: ``:source COMMAND target :`` plus CR-LF."""
    return len(f":{source} {command} {target} :".encode()) + 2


def split_bytes(text: str, limit: int) -> list[str]:
    """Split one line of text into pieces of at most ``limit`` UTF-8 bytes, on spaces where possible.

    Pieces never start or end with the space they were split at, and a piece is never cut inside a
    character's UTF-8 sequence.
    """
    if limit < 4:
        raise ValueError("a line needs room for at least one character")
    pieces: list[str] = []
    current = ""
    current_len = 0
    for word in text.split(" "):
        word_len = len(word.encode())
        sep = 1 if current else 0
        if current_len + sep + word_len <= limit:
            current = f"{current} {word}" if current else word
            current_len += sep + word_len
            continue
        if current:
            pieces.append(current)
            current, current_len = "", 0
        while word_len > limit:
            head, word = _cut(word, limit)
            pieces.append(head)
            word_len = len(word.encode())
        current, current_len = word, word_len
    if current:
        pieces.append(current)
    return [p for p in pieces if p]


def _cut(word: str, limit: int) -> tuple[str, str]:
    """The longest head of ``word`` within ``limit`` bytes, and the rest (cut between characters)."""
    size = 0
    for i, ch in enumerate(word):
        width = len(ch.encode())
        if size + width > limit:
            return word[:i], word[i:]
        size += width
    return word, ""


def fit_lines(text: str, *, source: str, command: str, target: str) -> list[str]:
    """The lines to send so that every relayed line, prefix and CR-LF included, fits in 512 bytes."""
    room = LINE_LIMIT - overhead(source, command, target)
    lines: list[str] = []
    for line in clean_outbound(text):
        lines.extend(split_bytes(line, room))
    return lines


_DEGREE_WORDS = re.compile(r"\((Botch|Overwhelming)\)|\bBoth botch\b")


def colour_degrees(text: str, result: dict[str, Any] | None) -> str:
    """mIRC formatting for dice results: a botch in red, an overwhelming success in bold."""
    if not result or result.get("kind") not in ("roll", "contest"):
        return text

    def paint(match: re.Match[str]) -> str:
        word = match.group(0)
        if "Overwhelming" in word:
            return f"{BOLD}{word}{BOLD}"
        return f"{COLOUR}{RED}{word}{COLOUR}"

    return _DEGREE_WORDS.sub(paint, text)
