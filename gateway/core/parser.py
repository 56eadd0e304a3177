"""Command lines to ``Invocation``: prefix handling and tokens (quoted strings keep their spaces)."""

from __future__ import annotations

import unicodedata

from gateway.core.errors import UserError
from gateway.core.types import Invocation

MAX_LINE = 2000


def strip_prefix(text: str, prefix: str, *, required: bool) -> str | None:
    """The command text without its prefix, or None when a prefixed platform's line is just chat."""
    stripped = text.strip()
    if stripped.startswith(prefix) and prefix:
        return stripped[len(prefix) :].lstrip()
    return None if required else stripped


# What a typed line may not hold: control, format, surrogate, private-use and unassigned code points.
UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})


def tokenize(text: str) -> list[str]:
    """Split on white space; "double" or 'single' quotes group words. Control characters are refused."""
    if len(text) > MAX_LINE:
        raise UserError(f"That line is {len(text)} characters long; commands stop at {MAX_LINE}.")
    tokens: list[str] = []
    current: list[str] = []
    quote: str | None = None
    in_token = False
    for ch in text:
        if unicodedata.category(ch) in UNPRINTABLE and ch not in "\t":
            raise UserError("That command has control or unassigned characters in it; type plain text.")
        if quote:
            if ch == quote:
                quote = None
            else:
                current.append(ch)
        elif ch in "\"'" and not current:
            quote, in_token = ch, True
        elif ch.isspace():
            if in_token:
                tokens.append("".join(current))
                current, in_token = [], False
        else:
            current.append(ch)
            in_token = True
    if quote:
        raise UserError(f"A quote ({quote}) is never closed; close it or leave it out.")
    if in_token:
        tokens.append("".join(current))
    return tokens


def split_comment(text: str) -> tuple[str, str | None]:
    """``roll 3 # sneaking past`` -> (``roll 3``, ``sneaking past``): a comment begins at a ``#``
    standing alone as a word, outside quotes. A ``#`` inside or at the start of a word (a roll id
    ``#pjkh3``, ``Mira#2``) or in quotes is text. An empty comment is None."""
    quote: str | None = None
    previous = " "
    for at, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and previous.isspace():
            quote = ch
        elif ch == "#" and previous.isspace() and (at + 1 == len(text) or text[at + 1].isspace()):
            return text[:at].rstrip(), " ".join(text[at + 1 :].split()) or None
        previous = ch
    return text, None


def parse(text: str) -> Invocation | None:
    """Parse a command line (prefix already removed). None for an empty line."""
    body, comment = split_comment(text)
    tokens = tokenize(body)
    if not tokens:
        return None
    return Invocation(name=tokens[0].casefold(), words=tuple(tokens[1:]), raw=text, comment=comment)
