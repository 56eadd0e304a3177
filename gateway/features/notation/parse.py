"""Dice notation to a tree: ``2d6+3``, ``4d6kh3``, ``5d10!>=9``, ``6d10>=7f1``, ``6x 4d6kh3``, ``d20 adv``.

The arithmetic is a Lark grammar (``grammar.lark``); a dice term with its modifiers is one token,
read here by a regular expression. Every limit of the feature is checked here, so what parses can
be rolled and its odds asked for. Mistakes are ``NotationError``s: a message key and its values,
worded in the reader's language by ``gateway.features.notation.messages``. Pure: no I/O."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

# Lark is imported on the first parse: every process loads this module (``roll`` tells notation
# from a pool by ``looks_like_notation``), few parse an expression (a console's ``roll 1`` never).
if TYPE_CHECKING:
    from lark import Lark, Token, Transformer, Tree

MAX_TEXT = 200  # characters of an expression
MAX_DICE = 1_000  # dice a roll starts with (repeats included; explosions and rerolls come on top)
MAX_SIDES = 10_000
MAX_DEPTH = 100  # extra dice one die may explode into, and times one die may be rerolled
MAX_REPEAT = 100  # results of ``6x ...`` (their dice also count towards MAX_DICE)
MAX_NUMBER = 10**9  # a constant; keeps every total a number a chat line can show


class NotationError(Exception):
    """What is wrong with an expression: a message key and its values."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class Condition:
    """Which faces a modifier takes: ``op`` is one of ``= < <= > >=``."""

    op: str
    value: int

    def __call__(self, face: int) -> bool:
        v = self.value
        op = self.op
        return (
            face == v
            if op == "="
            else face < v
            if op == "<"
            else face <= v
            if op == "<="
            else face > v
            if op == ">"
            else face >= v
        )

    def text(self) -> str:
        return f"{self.op}{self.value}"


@dataclass(frozen=True)
class Keep:
    """Keep the ``count`` highest (``high``) or lowest dice; ``kh``/``kl``/``dh``/``dl`` all become this."""

    high: bool
    count: int


@dataclass(frozen=True)
class Reroll:
    condition: Condition
    once: bool  # ``r``/``ro``: once; ``rr``: until the face is outside the condition (MAX_DEPTH times)


@dataclass(frozen=True)
class Dice:
    """One dice term. Faces run 1..sides, or -1..1 for Fate dice (``fate``, ``sides`` 3)."""

    count: int
    sides: int
    text: str
    fate: bool = False
    keep: Keep | None = None
    explode: Condition | None = None
    reroll: Reroll | None = None
    success: Condition | None = None
    failure: Condition | None = None

    @property
    def faces(self) -> range:
        return range(-1, 2) if self.fate else range(1, self.sides + 1)


@dataclass(frozen=True)
class Number:
    value: int


@dataclass(frozen=True)
class Operation:
    op: str  # + - * /
    left: Node
    right: Node


@dataclass(frozen=True)
class Negative:
    operand: Node


Node = Dice | Number | Operation | Negative


@dataclass(frozen=True)
class Expression:
    """A parsed roll: ``repeat`` separate results of ``body``; ``text`` is the expression as read."""

    body: Node
    text: str
    repeat: int = 1
    terms: tuple[Dice, ...] = field(default=(), compare=False)

    @property
    def counts_successes(self) -> bool:
        return any(t.success is not None for t in self.terms)


_GRAMMAR = Path(__file__).with_name("grammar.lark")
_TERM = re.compile(r"(?P<count>[0-9]*)d(?P<sides>[0-9]+|%|f)(?P<mods>.*)")
_MOD = re.compile(
    r"(?P<keep>kh|kl|dh|dl|k)(?P<n>[0-9]+)"
    r"|!(?P<xop>[<>]?=?)(?P<xv>[0-9]*)"
    r"|(?P<reroll>rr|ro|r)(?P<rop>[<>]?=?)(?P<rv>[0-9]+)"
    r"|f(?P<fop>[<>]?=?)(?P<fv>[0-9]+)"
    r"|(?P<sop>[<>]=?|=)(?P<sv>[0-9]+)"
)
# Words that start notation: ``2d6``, ``d20``, ``d%``, ``4dF``, ``6x`` (then a dice term), ``(``.
_START = re.compile(
    r"^(\(*[+-]?[0-9]*d([0-9]|%|f)|\(*[0-9]+d($|[^a-z])|[0-9]+x(\(*[0-9]*d|$))", re.IGNORECASE
)


@cache
def _parser() -> Lark:
    from lark import Lark

    return Lark(_GRAMMAR.read_text(), parser="lalr", maybe_placeholders=False)


def warm() -> None:
    """Build the grammar's parser now (Lark's import and the LALR tables, 30-50 ms of CPU) rather
    than on the first roll: a serving gateway calls it as it starts (``notation.command``)."""
    _parser()


def looks_like_notation(words: Sequence[str]) -> bool:
    """Whether a line's words after ``roll`` are dice notation (its first word is: ``2d6+3``, ``d20``,
    ``d%``, ``4dF``, ``6x``). A trait or pool never begins so, so ``roll 3`` and ``roll wits`` stay
    the rule system's."""
    return bool(words) and _START.match(words[0]) is not None


def _number(text: str, what: str) -> int:
    value = int(text)
    if value > MAX_NUMBER:
        raise NotationError("too_big", what=what, limit=MAX_NUMBER)
    return value


def _condition(op: str, value: str, default: str = "=") -> Condition:
    op = op or default
    if op == "=<":
        op = "<="
    if op == "=>":
        op = ">="
    return Condition(op, _number(value, "face"))


def dice_term(text: str) -> Dice:
    """One ``DICE`` token (lower case) as a ``Dice``, its modifiers checked against its faces."""
    found = _TERM.fullmatch(text)
    if found is None:  # the grammar's token and this pattern agree; a guard, not a path
        raise NotationError("unreadable", text=text)
    count = int(found["count"]) if found["count"] else 1
    raw_sides = found["sides"]
    fate = raw_sides == "f"
    sides = 3 if fate else 100 if raw_sides == "%" else int(raw_sides)
    if count == 0:
        raise NotationError("no_dice", term=text)
    if count > MAX_DICE:
        raise NotationError("too_many_dice", limit=MAX_DICE)
    if not fate and sides == 0:
        raise NotationError("no_sides", term=text)
    if sides > MAX_SIDES:
        raise NotationError("too_many_sides", limit=MAX_SIDES)
    die = Dice(count, sides, text.replace("df", "dF") if fate else text, fate=fate)
    mods = found["mods"]
    at = 0
    seen: set[str] = set()
    while at < len(mods):
        m = _MOD.match(mods, at)
        if m is None:
            raise NotationError("unreadable", text=text)
        at = m.end()
        kind = "keep" if m["keep"] else "explode" if m.group(0)[0] == "!" else None
        kind = kind or ("reroll" if m["reroll"] else "failure" if m["fv"] is not None else "success")
        if kind in seen:
            raise NotationError("twice", term=text, modifier=m.group(0))
        seen.add(kind)
        if fate:
            raise NotationError("fate_modifier", term=text)
        if m["keep"]:
            n = _number(m["n"], "keep")
            keep = _keep(m["keep"], n, count, text)
            die = replace(die, keep=keep)
        elif kind == "explode":
            condition = _condition(m["xop"], m["xv"]) if m["xv"] else Condition("=", sides)
            die = replace(die, explode=condition)
        elif kind == "reroll":
            condition = _condition(m["rop"], m["rv"], default="<=")
            die = replace(die, reroll=Reroll(condition, once=m["reroll"] != "rr"))
        elif kind == "failure":
            die = replace(die, failure=_condition(m["fop"], m["fv"], default="<="))
        else:
            die = replace(die, success=_condition(m["sop"], m["sv"]))
    _check_faces(die)
    return die


def _keep(word: str, n: int, count: int, text: str) -> Keep:
    if word in ("dh", "dl"):
        if n >= count:
            raise NotationError("drop_all", term=text, n=n, count=count)
        return Keep(high=word == "dl", count=count - n)
    if not 1 <= n <= count:
        raise NotationError("keep_more", term=text, n=n, count=count)
    return Keep(high=word != "kl", count=n)


def _check_faces(die: Dice) -> None:
    """A modifier must take some face and (explode, reroll until) leave one."""
    faces = die.faces
    if die.failure is not None and die.success is None:
        raise NotationError("failure_alone", term=die.text)
    checked = [("explode", die.explode), ("reroll", die.reroll.condition if die.reroll else None)]
    for name, condition in checked:
        if condition is None:
            continue
        taken = sum(1 for f in faces if condition(f))
        if taken == 0:
            raise NotationError("no_face", term=die.text, condition=condition.text(), sides=die.sides)
        forever = name == "explode" or (die.reroll is not None and not die.reroll.once)
        if forever and taken == len(faces):
            raise NotationError(f"every_face.{name}", term=die.text)
    for condition in (die.success, die.failure):
        if condition is not None and not any(condition(f) for f in faces):
            raise NotationError("no_face", term=die.text, condition=condition.text(), sides=die.sides)


@cache
def _builder() -> Transformer[Token, Node]:
    """The tree's transformer into ``Node``s (a class of Lark's, so made on first use)."""
    from lark import Token, Transformer

    class Build(Transformer[Token, Node]):
        def number(self, items: list[Token]) -> Number:
            return Number(_number(str(items[0]), "number"))

        def dice(self, items: list[Token]) -> Dice:
            return dice_term(str(items[0]))

        def add(self, items: list[Node]) -> Operation:
            return Operation("+", items[0], items[1])

        def sub(self, items: list[Node]) -> Operation:
            return Operation("-", items[0], items[1])

        def mul(self, items: list[Node]) -> Operation:
            return Operation("*", items[0], items[1])

        def div(self, items: list[Node]) -> Operation:
            return Operation("/", items[0], items[1])

        def neg(self, items: list[Node]) -> Node:
            return Negative(items[0])

        def unary(self, items: list[Node]) -> Node:  # ``+x`` (Lark keeps the rule when it has one child)
            return items[0]

    return Build()


def terms(node: Node) -> list[Dice]:
    """The dice terms of ``node``, left to right (the order they are rolled in)."""
    if isinstance(node, Dice):
        return [node]
    if isinstance(node, Operation):
        return terms(node.left) + terms(node.right)
    if isinstance(node, Negative):
        return terms(node.operand)
    return []


def _vantage(node: Node, word: str) -> Node:
    """``d20 adv``: the expression's first dice term, a single die, rolled twice keeping the higher
    (``dis``: the lower)."""
    found = terms(node)
    first = found[0] if found else None
    if first is None or first != Dice(1, first.sides, first.text, fate=first.fate) or first.fate:
        raise NotationError("vantage", word=word)
    keep = Keep(high=word == "adv", count=1)
    twice = replace(first, count=2, keep=keep, text=f"2d{first.sides}{'kh' if keep.high else 'kl'}1")
    return _replace_first(node, first, twice)


def _replace_first(node: Node, old: Dice, new: Dice) -> Node:
    if node is old:
        return new
    if isinstance(node, Operation):
        left = _replace_first(node.left, old, new)
        right = node.right if left is not node.left else _replace_first(node.right, old, new)
        return Operation(node.op, left, right)
    if isinstance(node, Negative):
        return Negative(_replace_first(node.operand, old, new))
    return node


def parse(text: str) -> Expression:
    """An expression (the words after ``roll``, joined by spaces) as a tree, or ``NotationError``."""
    text = " ".join(text.split())
    if len(text) > MAX_TEXT:
        raise NotationError("too_long", limit=MAX_TEXT, length=len(text))
    if not text:
        raise NotationError("empty")
    from lark import Token, Tree
    from lark.exceptions import LarkError, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

    try:
        tree: Tree[Token] = _parser().parse(text.lower())
    except (UnexpectedEOF, UnexpectedToken) as exc:
        if isinstance(exc, UnexpectedEOF) or exc.token.type == "$END":
            raise NotationError("incomplete", text=text) from None
        raise NotationError("unexpected", near=str(exc.token)[:12], text=text) from None
    except UnexpectedInput as exc:
        at = getattr(exc, "pos_in_stream", None)
        at = at if isinstance(at, int) and 0 <= at < len(text) else len(text)
        raise NotationError("unexpected", near=text[at : at + 12] or text[-12:], text=text) from None
    except LarkError:
        raise NotationError("unreadable", text=text) from None
    repeat = 1
    parts = list(tree.children)
    if parts and isinstance(parts[0], Token) and parts[0].type == "REPEAT":
        repeat = int(str(parts.pop(0))[:-1])
        if not 1 <= repeat <= MAX_REPEAT:
            raise NotationError("repeat", limit=MAX_REPEAT)
    vantage = None
    if parts and isinstance(parts[-1], Token) and parts[-1].type == "VANTAGE":
        vantage = str(parts.pop())
    try:
        body = _builder().transform(parts[0]) if isinstance(parts[0], Tree) else Number(0)
    except VisitError as exc:
        if isinstance(exc.orig_exc, NotationError):
            raise exc.orig_exc from None
        raise
    if vantage is not None:
        body = _vantage(body, vantage)
    found = terms(body)
    dice = sum(t.count for t in found) * repeat
    if dice > MAX_DICE:
        raise NotationError("too_many_dice", limit=MAX_DICE)
    if not found:
        raise NotationError("no_term", text=text)
    return Expression(body, text, repeat, tuple(found))
