"""A macro's body to the command lines it stands for: pure functions, no I/O.

A body is one or more commands separated by ``;`` (no rule system's syntax uses it; a ``;`` inside
quotes is text). ``{1}``, ``{2}``... are the invocation's values in order; ``{name}`` and
``{name=default}`` are named ones, given as ``name=value`` or, failing that, by the values left after
the numbered ones, in the order the names first appear. ``{{`` and ``}}`` are literal braces. A body
with no parameter at all takes the invocation's values at the end of its last command (an alias:
``macro add r = roll`` then ``!r 5``). Every failure is a ``MacroError`` naming the macro.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from gateway.core.errors import UserError
from gateway.core.parser import split_comment, tokenize

SEPARATOR = ";"
MAX_NAME_BYTES = 24  # a Second Life dialog button holds 24 bytes: every name fits one
MAX_BODY = 400  # characters of one body as saved
MAX_DEPTH = 3  # a macro may call a macro that calls a macro, no deeper
MAX_COMMANDS = 10  # commands one invocation may run, nested ones counted
MAX_EXPANDED = 2000  # characters of all those commands together: one typed line's most (parser.MAX_LINE)
MAX_VALUES = 9  # highest {n}
# Words after ``macro`` that are its own subcommands, never macro names.
SUBCOMMANDS = frozenset({"add", "list", "show", "remove", "--chronicle"})

_NAME = re.compile(r"[^\W_][\w-]*")
_SLOT_NAME = re.compile(r"[^\W\d][\w-]*")


class MacroError(Exception):
    """A macro that cannot expand: ``key`` names the message (``gateway.features.macros.messages``)."""

    def __init__(self, macro: str, key: str, **params: object) -> None:
        super().__init__(f"{macro}: {key} {params}")
        self.macro = macro
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Slot:
    key: str  # "1".."9" or a name
    default: str | None = None


Piece = str | Slot


@dataclass(frozen=True)
class Template:
    commands: tuple[tuple[Piece, ...], ...]
    numbered: int  # the highest {n}
    named: tuple[str, ...]  # in the order they first appear
    defaults: Mapping[str, str]

    @property
    def takes_values(self) -> bool:
        return bool(self.numbered or self.named)


@dataclass(frozen=True)
class Expanded:
    """One command a macro stands for: its text, its words, the comment its body gave it, and the
    chain of macros that led to it (outermost first)."""

    text: str
    words: tuple[str, ...]
    comment: str | None
    chain: tuple[str, ...]


def check_name(name: str) -> str | None:
    """The macro name casefolded, or None when it is not one: letters, digits, ``-`` and ``_``,
    beginning with a letter or digit, at most ``MAX_NAME_BYTES`` bytes of UTF-8."""
    folded = name.casefold()
    if not _NAME.fullmatch(folded) or len(folded.encode()) > MAX_NAME_BYTES or folded in SUBCOMMANDS:
        return None
    return folded


def split_commands(body: str) -> list[str]:
    """The body's commands: split at each ``;`` outside quotes (a quote opens at a word's start, as
    ``gateway.core.parser.tokenize`` reads it), each stripped."""
    parts: list[str] = []
    current: list[str] = []
    quote: str | None = None
    previous = " "
    for ch in body:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and (previous.isspace() or previous == SEPARATOR):
            quote = ch
        elif ch == SEPARATOR:
            parts.append("".join(current).strip())
            current, previous = [], ch
            continue
        current.append(ch)
        previous = ch
    parts.append("".join(current).strip())
    return parts


def parse_body(macro: str, body: str) -> Template:
    """The body as a template, or a ``MacroError`` saying what is wrong with it."""
    if len(body) > MAX_BODY:
        raise MacroError(macro, "body.long", length=len(body), most=MAX_BODY)
    commands = split_commands(body)
    if not all(commands):
        raise MacroError(macro, "body.empty")
    for text in commands:
        try:  # an unclosed quote or a control character is the body's mistake, told when it is saved
            tokenize(split_comment(text)[0])
        except UserError:
            raise MacroError(macro, "words", name=macro) from None
    parsed = [_pieces(macro, text) for text in commands]
    numbered = 0
    named: list[str] = []
    defaults: dict[str, str] = {}
    for pieces in parsed:
        for piece in pieces:
            if not isinstance(piece, Slot):
                continue
            if piece.key.isdigit():
                numbered = max(numbered, int(piece.key))
                continue
            if piece.key not in named:
                named.append(piece.key)
            if piece.default is not None and defaults.setdefault(piece.key, piece.default) != piece.default:
                raise MacroError(macro, "slot.defaults", slot=piece.key)
    return Template(tuple(tuple(p) for p in parsed), numbered, tuple(named), defaults)


def _pieces(macro: str, text: str) -> list[Piece]:
    pieces: list[Piece] = []
    literal: list[str] = []
    at = 0
    while at < len(text):
        ch = text[at]
        if text.startswith("{{", at) or text.startswith("}}", at):
            literal.append(ch)
            at += 2
            continue
        if ch == "}":
            raise MacroError(macro, "slot.brace")
        if ch != "{":
            literal.append(ch)
            at += 1
            continue
        end = text.find("}", at)
        if end < 0:
            raise MacroError(macro, "slot.brace")
        pieces.append("".join(literal))
        literal = []
        pieces.append(_slot(macro, text[at + 1 : end]))
        at = end + 1
    pieces.append("".join(literal))
    return [p for p in pieces if p != ""]


def _slot(macro: str, inside: str) -> Slot:
    key, eq, default = inside.partition("=")
    key = key.strip().casefold()
    if key.isdigit() and not eq:
        if not 1 <= int(key) <= MAX_VALUES:
            raise MacroError(macro, "slot.number", slot=key[:10], most=MAX_VALUES)
        return Slot(str(int(key)))
    if not _SLOT_NAME.fullmatch(key) or len(key) > 24 or "{" in default:
        raise MacroError(macro, "slot.bad", slot=inside[:30])
    return Slot(key, default if eq else None)


def bind(macro: str, template: Template, values: Sequence[str]) -> list[str]:
    """The template's commands with the invocation's ``values`` in their slots."""
    given: dict[str, str] = {}
    plain: list[str] = []
    for value in values:
        key, eq, rest = value.partition("=")
        if eq and key.casefold() in template.named and key.casefold() not in given:
            given[key.casefold()] = rest
        else:
            plain.append(value)
    if len(plain) < template.numbered:
        raise MacroError(macro, "value.missing", slot=str(len(plain) + 1))
    filled = {str(n + 1): plain[n] for n in range(template.numbered)}
    left = plain[template.numbered :]
    for name in template.named:
        if name in given:
            filled[name] = given[name]
        elif left:
            filled[name] = left.pop(0)
        elif name in template.defaults:
            filled[name] = template.defaults[name]
        else:
            raise MacroError(macro, "value.missing", slot=name)
    if left and template.takes_values:
        n = template.numbered + len(template.named)
        raise MacroError(macro, "value.extra", n=n, extra=left[0][:30])
    lines = [
        "".join(p if isinstance(p, str) else _quoted(macro, filled[p.key]) for p in command)
        for command in template.commands
    ]
    if left:
        lines[-1] = " ".join([lines[-1], *(_quoted(macro, v) for v in left)])
    return lines


def _quoted(macro: str, value: str) -> str:
    """A value as one word of a command line: quoted when it holds spaces (or is empty)."""
    if value and not any(ch.isspace() for ch in value) and value[0] not in "\"'":
        return value
    for quote in "\"'":
        if quote not in value:
            return f"{quote}{value}{quote}"
    raise MacroError(macro, "value.quotes")


def expand(
    name: str,
    values: Sequence[str],
    bodies: Mapping[str, str],
    is_command: Callable[[str], bool],
) -> list[Expanded]:
    """Every command macro ``name`` given ``values`` stands for, nested macros expanded. ``bodies``:
    the macros this person sees here, by casefolded name; ``is_command(word)``: whether a command
    of the channel's system begins with ``word`` (a command always wins over a bare macro name)."""
    out: list[Expanded] = []
    _expand(name.casefold(), list(values), bodies, is_command, (), None, out)
    return out


def _expand(
    name: str,
    values: list[str],
    bodies: Mapping[str, str],
    is_command: Callable[[str], bool],
    chain: tuple[str, ...],
    comment: str | None,
    out: list[Expanded],
) -> None:
    top = chain[0] if chain else name
    if name in chain:
        raise MacroError(top, "loop", chain=" → ".join([*chain, name]))
    if len(chain) >= MAX_DEPTH:
        raise MacroError(top, "deep", most=MAX_DEPTH)
    body = bodies.get(name)
    if body is None:
        raise MacroError(top, "missing", name=name)
    chain = (*chain, name)
    # A body's own mistake names that macro (the one to fix); the bounds name the one invoked.
    for line in bind(name, parse_body(name, body), values):
        text, own = split_comment(line)
        try:
            words = tokenize(text)
        except UserError:
            raise MacroError(name, "words", name=name) from None
        note = comment if comment is not None else own
        inner = macro_call(words, bodies, is_command)
        if inner is not None:
            _expand(inner[0], inner[1], bodies, is_command, chain, note, out)
            continue
        if not words:
            raise MacroError(top, "body.empty")
        out.append(Expanded(text, tuple(words), note, chain))
        if len(out) > MAX_COMMANDS:
            raise MacroError(top, "many", most=MAX_COMMANDS)
        if sum(len(e.text) for e in out) > MAX_EXPANDED:
            raise MacroError(top, "long", most=MAX_EXPANDED)


def macro_call(
    words: Sequence[str], bodies: Mapping[str, str], is_command: Callable[[str], bool]
) -> tuple[str, list[str]] | None:
    """(macro name, its values) when ``words`` call a macro: ``macro NAME ...`` with NAME no
    subcommand of ``macro``, or ``NAME ...`` with NAME a macro and no command's first word. None else."""
    if not words:
        return None
    first = words[0].casefold()
    if first == "macro" and len(words) > 1 and words[1].casefold() not in SUBCOMMANDS:
        return words[1].casefold(), list(words[2:])
    if first in bodies and not is_command(first):
        return first, list(words[1:])
    return None
