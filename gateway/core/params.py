"""Typed command parameters: one declaration read by the parser, ``help``, Discord's slash options and
autocomplete, the console's Tab completion, the web's command forms and the docs' command reference.

A command declares its parameters in the order a person types them::

    Command("damage", handler, "record damage", params=(Param("amount", "integer", "levels of damage",
            required=True, minimum=1, maximum=10),))

``bind`` reads the words after a command's name into values by name (``Invocation.args``);
``render`` is its inverse, so an adapter with typed input (a Discord option, a web form field) builds
the same words a person would type and the command runs through the one parser. A leaf module: it
imports nothing of the gateway.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Kind = Literal[
    "pool",  # a dice pool in the system's words (traits, numbers, +N/-N, wp); takes the rest of the line
    "trait",  # one trait of the active character (completion: the traits of its sheet)
    "integer",  # a whole number within [minimum, maximum]
    "modifier",  # +N or -N dice, within [minimum, maximum]
    "choice",  # one of ``choices`` (or a unique beginning of one)
    "character",  # a character of the channel's system, by name
    "own_character",  # one of the sender's own characters, by name
    "person",  # someone the gateway knows: PLATFORM:ID, or the display name of one person it has seen
    "power",  # one of the active character's powers
    "house_rule",  # a house-rule switch of the channel's system
    "word",  # one free word
    "text",  # free text: the rest of the line
    "flag",  # the word ``keyword`` present or not (``wp``)
    "notation",  # dice notation (``2d6+3``); takes the rest of the line
]

# Kinds that take every word left on the line (a person types them last).
REST_KINDS = frozenset({"pool", "text", "notation"})
INTEGER_KINDS = frozenset({"integer", "modifier"})
# Kinds that name something (a character, a power, a person), whose names may hold spaces: typed bare,
# a name takes the words the positional parameters after it leave (``st soak Mira Vance 2``). A
# person's name is read into an identity key in the command's unit (``gateway.features.people``).
NAME_KINDS = frozenset({"character", "own_character", "power", "person"})
NAME_WORDS = 12
_INTEGER = re.compile(r"[+-]?\d{1,9}")
_MODIFIER = re.compile(r"[+-]\d{1,9}")

Texts = Mapping[str, tuple[str, str]]  # locale -> (label, description); "" keeps the English one


@dataclass(frozen=True)
class Param:
    """One parameter. ``name`` is the key in ``Invocation.args`` and an option's name on Discord
    (lower case, no spaces). ``keyword``: a word written before the value (``vs``, ``dc``), which
    may then stand anywhere after the positional words; for a ``flag`` the word itself. ``many``:
    several values (a list), the rest of the line. ``texts``: label and description per locale."""

    name: str
    kind: Kind
    description: str
    required: bool = False
    many: bool = False
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    keyword: str | None = None
    texts: Texts = field(default_factory=dict, hash=False, compare=False)
    # A choice's name in each language the system ships (locale -> choice -> label), where it is not
    # the choice itself: Discord's picker shows it, and the parser takes it as that choice.
    choice_texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict, hash=False, compare=False)

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9_]{0,31}", self.name):
            raise ValueError(f"parameter name {self.name!r}: lower-case letters, digits and _ only")
        if self.kind == "flag" and not self.keyword:
            raise ValueError(f"flag {self.name!r} needs its keyword")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"choice {self.name!r} needs its choices")

    @property
    def rest(self) -> bool:
        """Whether it takes every word left on the line."""
        return self.many or self.kind in REST_KINDS

    def label_in(self, locale: str) -> str:
        label = self.texts.get(locale, ("", ""))[0]
        return label or self.name

    def description_in(self, locale: str) -> str:
        description = self.texts.get(locale, ("", ""))[1]
        return description or self.description

    def choice_label(self, choice: str, locale: str) -> str:
        """What ``choice`` is called in ``locale`` (the choice itself where no label is declared)."""
        return self.choice_texts.get(locale, {}).get(choice, choice)

    def placeholder(self) -> str:
        """How ``usage`` writes it: ``NAME``, ``[+N|-N]``, ``[wp]``, ``[vs AGAINST]``, ``TRAIT...``."""
        if self.kind == "flag":
            shown = str(self.keyword)
        else:
            if self.kind == "modifier":
                core = "+N|-N"
            elif self.kind == "choice":
                core = "|".join(self.choices)
            else:
                core = self.name.upper()
            if self.many:
                core += "..."
            shown = f"{self.keyword} {core}" if self.keyword else core
        return shown if self.required else f"[{shown}]"


def usage(name: str, params: Sequence[Param]) -> str:
    """A usage line from the declaration: ``damage AMOUNT``, ``roll POOL [vs AGAINST]``."""
    return " ".join([name, *(p.placeholder() for p in params)])


@dataclass  # not frozen: context managers set an exception's __traceback__
class ParamError(ValueError):
    """A line that does not fit the declaration: which parameter, and what is wrong (``problem`` is
    a key the core's catalogue words in the reader's language: ``missing``, ``not_integer``,
    ``too_low``, ``too_high``, ``not_modifier``, ``not_choice``, ``extra``)."""

    param: Param | None
    problem: str
    word: str = ""

    def __str__(self) -> str:
        name = self.param.name if self.param is not None else ""
        return f"{self.problem}: {name} {self.word}".strip()


def _convert(param: Param, word: str) -> Any:
    if param.kind in INTEGER_KINDS:
        pattern = _MODIFIER if param.kind == "modifier" else _INTEGER
        if not pattern.fullmatch(word):
            raise ParamError(param, "not_modifier" if param.kind == "modifier" else "not_integer", word)
        value = int(word)
        if param.minimum is not None and value < param.minimum:
            raise ParamError(param, "too_low", word)
        if param.maximum is not None and value > param.maximum:
            raise ParamError(param, "too_high", word)
        return value
    if param.kind == "choice":
        # The choice itself, or a unique beginning of one (``apt`` for aptitude), as people type.
        # A declared label in any language (``Лесанг`` for lesang) stands for its choice the same way.
        folded = word.casefold()
        names = [(c, c) for c in param.choices]
        names += [(c, label) for labels in param.choice_texts.values() for c, label in labels.items()]
        for choice, name in names:
            if name.casefold() == folded:
                return choice
        begun = {c for c, name in names if folded and name.casefold().startswith(folded)}
        if len(begun) == 1:
            return begun.pop()
        raise ParamError(param, "not_choice", word)
    return word


def _value(param: Param, words: Sequence[str]) -> Any:
    if param.many:
        return [_convert(param, w) for w in words]
    if param.rest:
        return " ".join(words)
    return _convert(param, words[0])


def _positional(params: Sequence[Param], left: Sequence[str]) -> dict[str, Any]:
    """The words left once the keywords are out, read by the positional parameters in order."""
    args: dict[str, Any] = {}
    left = list(left)
    for index, param in enumerate(params):
        if not left:
            break
        if param.rest:
            args[param.name] = _value(param, left)
            left = []
        elif param.kind in NAME_KINDS:
            take = _name_words(params[index + 1 :], left)
            args[param.name] = " ".join(left[:take])
            left = left[take:]
        else:
            take = _value_words(param, left)
            args[param.name] = _value(param, [" ".join(left[:take])])
            left = left[take:]
    if left:
        raise ParamError(None, "extra", " ".join(left))
    return args


def _value_words(param: Param, words: Sequence[str]) -> int:
    """How many of ``words`` a value takes: one, or for a choice a label of several words written
    whole (``clan Бель Морт``)."""
    if param.kind != "choice" or not param.choice_texts:
        return 1
    labels = {label.casefold() for names in param.choice_texts.values() for label in names.values()}
    longest = max(len(label.split()) for label in labels)
    for size in range(min(longest, len(words)), 1, -1):
        if " ".join(words[:size]).casefold() in labels:
            return size
    return 1


def _name_words(after: Sequence[Param], left: Sequence[str]) -> int:
    """How many words a name takes: the fewest that let the parameters after it read the rest
    (``st soak Mira Vance 2``: two; ``init join Mira Vance``: both, ``Vance`` being no number),
    else the fewest that let them read without error (so the missing one is named), else all.
    A name holds at most ``NAME_WORDS`` words."""
    readable: int | None = None  # the fewest that read, though leaving a required one out
    for take in range(1, min(len(left), NAME_WORDS + 1)):
        try:
            rest = _positional(after, left[take:])
        except ParamError:
            continue
        if all(p.name in rest for p in after if p.required):
            return take
        readable = take if readable is None else readable
    return len(left) if readable is None else readable


def _starts_another(keywords: Mapping[str, Param], word: str, param: Param, args: Mapping[str, Any]) -> bool:
    """Whether ``word`` is the keyword of another parameter still to be read."""
    other = keywords.get(word.casefold())
    return other is not None and other is not param and (other.kind == "flag" or other.name not in args)


def bind(params: Sequence[Param], words: Sequence[str]) -> dict[str, Any]:
    """The words after a command's name, read by the declaration: ``{name: value}`` for each
    parameter given (a flag: True when present, False otherwise). Keyword parameters are taken out
    first wherever they stand; the other words fill the positional parameters in order, a rest
    parameter taking what is left, a name (``NAME_KINDS``) the fewest words that let the ones
    after it fit. Raises ``ParamError`` for a missing required value, a value out of range or not among
    the choices, and words left over."""
    keywords = {p.keyword.casefold(): p for p in params if p.keyword}
    args: dict[str, Any] = {p.name: False for p in params if p.kind == "flag"}
    left: list[str] = []
    at = 0
    while at < len(words):
        word = words[at]
        param = keywords.get(word.casefold())
        if param is None or (param.name in args and param.kind != "flag"):
            left.append(word)
            at += 1
            continue
        if param.kind == "flag":
            args[param.name] = True
            at += 1
            continue
        if param.rest:  # to the end, or to another parameter's keyword (``vs 4 secret``)
            end = next(
                (i for i in range(at + 1, len(words)) if _starts_another(keywords, words[i], param, args)),
                len(words),
            )
            following = list(words[at + 1 : end])
        else:
            following = list(words[at + 1 : at + 1 + _value_words(param, words[at + 1 :])])
        if not following:
            raise ParamError(param, "missing", word)
        args[param.name] = _value(param, following if param.rest else [" ".join(following)])
        at += 1 + len(following)
    args.update(_positional([p for p in params if not p.keyword], left))
    for param in params:
        if param.required and param.name not in args:
            raise ParamError(param, "missing")
    return args


def render(params: Sequence[Param], values: Mapping[str, Any]) -> list[str]:
    """The words a person would type for ``values`` (typed input: a Discord option, a web form), in
    declaration order; ``bind`` reads them back. A modifier of 0 and a False flag are left out; a
    value holding spaces is one word where its parameter takes one word, so it is quoted."""
    words: list[str] = []
    for param in params:
        value = values.get(param.name)
        if value is None or value == "" or value is False:
            continue
        if param.kind == "flag":
            words.append(str(param.keyword))
            continue
        if param.kind == "modifier":
            if int(value) == 0:
                continue
            text = f"{int(value):+d}"
        elif param.many and isinstance(value, (list, tuple)):
            text = " ".join(quoted(str(v)) for v in value)
        elif param.rest:
            text = str(value)
        else:
            text = quoted(str(value))
        if param.keyword:
            words.append(param.keyword)
        words.append(text)
    return words


def quoted(value: str) -> str:
    """``value`` as one word of a command line: quoted when it is empty, holds white space or starts
    with a quote (which the tokeniser would otherwise read as an opening quote)."""
    if not value or value[0] in "\"'" or any(ch.isspace() for ch in value):
        quote = "'" if '"' in value else '"'
        return f"{quote}{value}{quote}"
    return value
